// LuaSandbox
