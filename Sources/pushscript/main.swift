print("pushscript")
