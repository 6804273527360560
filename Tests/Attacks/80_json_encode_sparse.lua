-- Attack (cosmetic): json.encode({[2]="b",[3]="c"}) said "value[1] is nil", which hides what
--         is wrong: the table is a sparse array, not a sequence.
-- Vector: a misleading error message.
-- Expected: nil and a message that names the sparse array; completed, subtitle the message.
function didReceive(request, content)
  content.title = "attacked"
  local s, err = json.encode({ [2] = "b", [3] = "c" })
  content.subtitle = tostring(err):find("not a sequence", 1, true) and "not a sequence" or tostring(err)
  content.body = s == nil and "blocked" or "escaped: " .. s
end
