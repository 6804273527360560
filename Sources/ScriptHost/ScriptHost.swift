// ScriptHost
