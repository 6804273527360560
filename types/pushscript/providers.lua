---@meta pushscript.providers
-- Type definitions of the bundled module `pushscript.providers` (docs/script-api.md,
-- "Bundled modules"): `local providers = require "pushscript.providers"`.

---One piece of a provider's media.
---@class ProviderMedia
---@field url string
---@field identifier? string The attachment identifier the provider's SDK uses (nil: a new UUID, as the SDK's).
---@field kind? "image"|"audio"|"video" What the payload says the media is.
---@field only? boolean When true, media of another kind is not attached (Xtremepush: images).
---@field options? AttachOptions Attachment options from the payload (Airship's crop, time, hidden, thumbnail_id).

---A provider's badge rule.
---@class ProviderBadge
---@field set? integer The badge becomes this (and the stored count with it).
---@field increment? integer The stored count changes by this, never below 0.
---@field keep? boolean With `set`: the count is stored, the payload's badge is left as it is.
---@field clear? boolean The badge and the stored count are cleared (Klaviyo's set_count without a value).

---What `apply` may do; each part is on unless set to false.
---@class ProviderOptions
---@field media? boolean Download and attach the provider's media.
---@field buttons? boolean Register the provider's buttons as its SDK's category, with the icons its payload names.
---@field badge? boolean Apply the provider's badge rule through the store.
---@field text? boolean Make the provider's text changes (Airship's `content`).
---@field partialMedia? boolean Airship: apply the text first and attach what downloaded even when another download fails (its SDK applies nothing then).
---@field badgeKey? string The store key of the badge count (default "badge").
---@field timeout? number Seconds each download may take.
---@field receipts? boolean|ProviderReceipts Send the provider's delivery receipt after delivery (off unless given; posted only to hosts the host allows).
---@field receiptTimeout? number Seconds the receipt may take (default 3).

---What the receipts need that the payload does not carry.
---@class ProviderReceipts
---@field onesignal? {appId: string, subscriptionId?: string} PUT api.onesignal.com/notifications/<id>/report_received.
---@field customerio? {cdpApiKey: string, deviceToken: string, region?: "us"|"eu"} POST cdp.customer.io/v1/track, "delivered".
---@field pushwoosh? {appCode: string, hwid: string, userId?: string} POST cp.pushwoosh.com/json/1.3/messageDeliveryEvent.

local providers = {}

---The provider of a payload, in lower case ("onesignal", "airship", "braze", "firebase",
---"iterable", "clevertap", "customerio", "pushwoosh", "batch", "pinpoint", "moengage",
---"klaviyo", "mapp-engage", "appoxee", "xtremepush", "mobisoft", "alibaba"), or nil.
---@param userInfo table
---@return string?
function providers.detect(userInfo) end

---The provider's media; an empty list when there is none, and why media the payload names is not taken.
---@param userInfo table
---@return ProviderMedia[]
---@return string? why
function providers.media(userInfo) end

---The category the provider's SDK would register for the payload (the shape
---`categories.register` takes), or nil and why not.
---@param userInfo table
---@param categoryIdentifier? string The content's category (default `aps.category`).
---@param requestIdentifier? string `request.identifier`, which names Klaviyo's category.
---@return Category?
---@return string? why
function providers.buttons(userInfo, categoryIdentifier, requestIdentifier) end

---The provider's badge rule, or nil; and what the SDK made of a value it could not read.
---@param userInfo table
---@return ProviderBadge?
---@return string? note
function providers.badge(userInfo) end

---Does what the provider's own extension does: text, buttons, badge, then media (Airship's
---media and text together, after every download, or nothing). Failures are logged (`warn`)
---and never stop the rest; what was done is logged at `debug`.
---@param request Request
---@param content Content
---@param options? ProviderOptions
---@return string? provider
function providers.apply(request, content, options) end

---Sends the delivery receipts `apply` noted in this request, after the content was delivered.
---Requiring the module makes it the script's `afterDelivery` when the script defines none;
---`apply` runs it after the script's own `afterDelivery` otherwise. Each receipt is sent once.
---@param request Request
---@param content Content
function providers.afterDelivery(request, content) end

---Every name `detect` can return, in the order payloads are tried.
---@return string[]
function providers.names() end

return providers
