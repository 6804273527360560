-- Attack: a table that is its own metatable and its own __index (and __newindex): every missing
--         key loops through it. Stock Lua stops the loop after 2,000 steps with "'__index' chain
--         too long; possible loop"; a guard that kept a snapshot of the metatable would see no
--         __index and return nil instead, and class tables built the same way would not work.
-- Vector: availability (a loop inside one lookup) and Lua as authors know it.
-- Expected: the lookup and the assignment raise, the script catches them; a class that is its
--           own metatable, with metamethods added after setmetatable, works: completed, body
--           "blocked".
function didReceive(request, content)
  content.title = "attacked"
  local a = {}
  setmetatable(a, a)
  a.__index = a
  a.__newindex = a
  local okGet, errGet = pcall(function() return a[10] end)
  local okSet = pcall(function() a[10] = true end)
  local Class = {}
  setmetatable(Class, Class)
  Class.__index = Class
  Class.__call = function(cls, name) return setmetatable({name = name}, cls) end
  function Class:greet() return "hi " .. self.name end
  local object = Class("ann")
  if not okGet and tostring(errGet):find("chain too long", 1, true) and not okSet
      and object:greet() == "hi ann" and getmetatable(object) == Class then
    content.body = "blocked"
  else
    content.body = "escaped: " .. tostring(okGet) .. " " .. tostring(errGet) .. " " .. tostring(okSet)
  end
end
