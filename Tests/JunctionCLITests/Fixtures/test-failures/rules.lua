-- Logging that must never block anyone; it breaks on push links without a campaign.
interceptor { name = "push-audit", all = true, priority = 100, on_error = "continue",
  run = function(req, ctx)
    if req.source == "push" then
      log.info("push link " .. req.url .. " campaign=" .. req.query.campaign)
    end
  end }

-- A login gate with a bug: guests have no ctx.user to index.
group("login", function(req, ctx)
  if ctx.user.id == nil then return gate("myapp://login") end
end)

interceptor { name = "shop-hours", route = "shop", run = function(req, ctx)
  if ctx.hour >= 22 then return reject("the shop is closed", 451) end
end }

interceptor { name = "broken-verdict", route = "broken", run = function(req, ctx)
  return 42
end }
