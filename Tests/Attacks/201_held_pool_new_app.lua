-- Attack: hold every Lua thread with requests stuck where no check reaches (a store call waiting
--         for a lock held elsewhere), then send a request for an app never seen, whose script
--         must first be checked on a Lua thread: the check queued behind the stuck jobs with no
--         deadline of the request's around it, and the request waited until a stuck call
--         returned (forever if none did).
-- Vector: liveness: a held pool and a script lookup. The setting is made by the Swift suite
--         AttackSettingTests (a pool of two threads, a script directory); in the catalogue the
--         case runs alone and completes.
-- Expected: in that setting, the new app's request falls back at once (within 500 ms of a 10 s
--           deadline): original content, reason time, "... must be checked first, and all 2
--           Lua threads are held ..."; once the threads come back it is served. Alone:
--           completed, body "survived".
function didReceive(request, content)
  content.title = "attacked"
  content.body = "survived"
end
