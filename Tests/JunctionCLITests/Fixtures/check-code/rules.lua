group("login", function(req, ctx)
  if req.source == "mini_program" or req.source == "pusj" then return nil end
  seen = true
  if not rolout("login-gate", ctx.device_id, 50) then return nil end
  return gate("myapp://login")
end)
