// ScriptTesting
