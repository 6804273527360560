-- A module of attack 122: requires loop_b, which requires this one again.
return { b = require "120_modules.loop_b" }
