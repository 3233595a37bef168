redirect { from = "myapp://feed/:id", to = "myapp://moments/{id}" }
group("login", function(req, ctx) end)
