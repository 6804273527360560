-- The providers library with delivery receipts: each provider whose own extension confirms
-- delivery gets its receipt, when the host allows the provider's host (--allow-post). The ids
-- the payload does not carry come from the app. The receipts are sent after delivery: the
-- module is this script's afterDelivery.
local providers = require "pushscript.providers"
function didReceive(r, c)
  providers.apply(r, c, { receipts = {
    onesignal = { appId = "5eb5a37e-b458-11e3-ac11-000c2940e62c", subscriptionId = "1dd608f2-c6a1-11e3-851d-000c2940e62c" },
    customerio = { cdpApiKey = "cdp-key", deviceToken = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad" },
    pushwoosh = { appCode = "XXXXX-XXXXX", hwid = "4C6D0B4A-2F1E-4E7B-9B1A-3F2D1C0B9A8E" },
  } })
end
