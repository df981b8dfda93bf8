print("responder-load: not built yet")
