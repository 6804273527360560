-- The providers library with Airship's media kept in part: what downloaded is attached, and the
-- attachment's text applied, even when another download fails (Airship's SDK applies nothing of
-- its media attachment then). See docs/script-api.md, "Bundled modules".
local providers = require "pushscript.providers"
function didReceive(r, c) providers.apply(r, c, { partialMedia = true }) end
