-- An inbox whose pushes arrive end-to-end encrypted: the server seals the message with
-- AES-256-GCM under a key the app shares (keys.get("inbox")); APNs sees only a placeholder.
--
-- payload: aps.alert is the placeholder, aps.category the base category, and
--   enc = {kid=, nonce=, ciphertext=, tag=}  (base64; the key id is the associated data)
-- sealed message: {"from": ..., "text": ..., "thread": ...}

local function sealed(enc)
  local parts = {}
  for _, name in ipairs({"nonce", "ciphertext", "tag"}) do
    local bytes, err = base64.decode(enc[name] or "")
    if not bytes then return nil, name .. ": " .. err end
    parts[name] = bytes
  end
  return parts
end

local function open(enc)
  local key = keys.get(enc.kid or "")
  if not key then return nil, "no key named '" .. tostring(enc.kid) .. "'" end
  local parts, err = sealed(enc)
  if not parts then return nil, err end
  local plaintext, failure = crypto.decrypt{
    alg = "aes-256-gcm", key = key, nonce = parts.nonce,
    ciphertext = parts.ciphertext, tag = parts.tag, aad = enc.kid,
  }
  if not plaintext then return nil, failure end
  return json.decode(plaintext)
end

function didReceive(request, content)
  -- Apple's badge has no increment: the store keeps the count across pushes.
  content.badge = store.increment("badge")

  -- Buttons in the device's language: message_de, message_en, ... (English when none fits).
  local base = content.categoryIdentifier ~= "" and content.categoryIdentifier or "message"
  content.categoryIdentifier = categories.localized(base, request.locales[1])

  local enc = content.userInfo.enc
  if type(enc) ~= "table" then return end
  local message, err = open(enc)
  if not message then
    log.warn("cannot open the message: %s", err)
    return
  end
  content.title = message.from
  content.body = message.text
  content.threadIdentifier = message.thread or ""
  content.userInfo.enc = nil  -- the sealed copy is of no use to the app once opened
end

function bestAttempt(content, reason)
  -- The placeholder alert stays; say why the message could not be shown.
  content.subtitle = "Open the app to read this message"
end
