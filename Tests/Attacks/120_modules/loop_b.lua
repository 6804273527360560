-- A module of attack 122: requires loop_a while loop_a loads.
return { a = require "120_modules.loop_a" }
