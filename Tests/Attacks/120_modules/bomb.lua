-- A module of attack 123: allocates far past the memory limit while it loads.
local s = string.rep("x", 1 << 20)
local t = {}
for i = 1, 1e6 do t[i] = s .. i end
return t
