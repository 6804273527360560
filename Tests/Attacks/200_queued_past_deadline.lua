-- Attack: arrive while every Lua thread is busy with requests still within their deadlines,
--         so that this request's job waits in the queue past its own deadline: a host that
--         runs it late runs its chunk after its answer was given, and gives up its state.
-- Vector: liveness: a job queued past its deadline. The busy threads are made by the Swift
--         suite AttackSettingTests (a pool of two threads, both held); in the catalogue the
--         case runs alone and completes.
-- Expected: in that setting, answered at its deadline (200 ms, within 100 ms more) with the
--           original content, reason time, "... before a Lua thread was free; the script was
--           not run"; the job never runs later (its chunk's store write never lands). Alone:
--           completed, body "survived".
store.set("200_chunk_ran", true)

function didReceive(request, content)
  content.title = "attacked"
  content.body = "survived"
end
