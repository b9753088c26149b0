print("framescope")
