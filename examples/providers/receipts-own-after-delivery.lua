-- The providers library beside a script's own afterDelivery: the receipt the library notes in
-- didReceive is sent after the script's afterDelivery has run, once the content was delivered.
local providers = require "pushscript.providers"
function didReceive(r, c)
  providers.apply(r, c, { receipts = { onesignal = { appId = "5eb5a37e-b458-11e3-ac11-000c2940e62c", subscriptionId = "1dd608f2-c6a1-11e3-851d-000c2940e62c" } } })
end
function afterDelivery(r, c)
  log.info("delivered: %s", c.title)
end
