-- The module of attack 121: counts its own loads in its table and sets a global.
moduleGlobal = "set by the module"
return { count = 1 }
