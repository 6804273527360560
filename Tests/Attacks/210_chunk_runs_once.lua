-- Attack: get didReceive stuck where no check reaches (a store call waiting for a lock held
--         elsewhere), so that the host gives its state up: the host then ran the chunk again in
--         a fresh state for bestAttempt — twice in one request, side effects and all.
-- Vector: wrong outcomes after an abandonment. The held lock is made by the Swift suite
--         AttackSettingTests; in the catalogue the case runs alone and completes.
-- Expected: in that setting, the chunk runs once (one "chunk ran" in the log), bestAttempt is
--           not called (it would need the stuck state): fallback, time, title "attacked", body
--           "original", a host warning that names didReceive, within the deadline + 250 ms.
--           Alone: completed, body "survived", one "chunk ran".
log.info("chunk ran")

function didReceive(request, content)
  content.title = "attacked"
  store.set("210", 1)
  content.body = "survived"
end

function bestAttempt(content, reason)
  content.body = "best attempt in a second state"
end
