redirect { from = "myapp://feed/:room", to = "myapp://live/{room}" }
fallback(function(req, ctx) return redirect("myapp://upgrade") end)
