-- The body arrives sealed with ChaCha20-Poly1305 under a key the app holds (keys.get);
-- APNs and the provider only ever see the placeholder alert. userInfo.secret holds the
-- nonce, the sealed body and the tag, each in base64.
function didReceive(request, content)
  local secret = content.userInfo.secret
  if type(secret) ~= "table" then return end
  local key = keys.get("messages")
  if not key then
    log.warn("no key 'messages'")
    return
  end
  local body, err = crypto.decrypt{
    alg = "chacha20-poly1305", key = key,
    nonce = base64.decode(secret.nonce or "") or "",
    ciphertext = base64.decode(secret.body or "") or "",
    tag = base64.decode(secret.tag or "") or "",
  }
  if not body then
    log.warn("cannot decrypt: %s", err)   -- the placeholder stays
    return
  end
  content.body = body
  content.userInfo.secret = nil           -- the app gets the plain text only
end
