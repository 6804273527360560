-- One notification service extension for every push provider: the bundled providers library
-- finds the provider from the payload and does what its own extension does (media, buttons,
-- badge, text). See docs/script-api.md, "Bundled modules".
local providers = require "pushscript.providers"
function didReceive(r, c) providers.apply(r, c) end
