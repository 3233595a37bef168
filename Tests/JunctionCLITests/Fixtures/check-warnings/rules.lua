group("legacy", function(req, ctx) end)
