-- Interceptors: global ones run first (by priority), then group policies, then route ones.

-- Every push link is logged with its campaign, for the push team's dashboards.
interceptor { name = "push-audit", all = true, priority = 100, on_error = "continue",
  run = function(req, ctx)
    if req.source == "push" then
      log.info("push link " .. req.url .. " campaign=" .. (req.query.campaign or "none"))
    end
  end }

-- The new checkout page goes to 10% of signed-in users.
interceptor { name = "checkout-v2-rollout", route = "checkout",
  run = function(req, ctx)
    if rollout("checkout-v2", ctx.user.id, 10) then
      return redirect("myapp://checkout/v2")
    end
  end }

-- Where the native live room is switched off, it declines and the H5 room opens instead.
interceptor { name = "native-live-switch", route = "live.room",
  run = function(req, ctx)
    if not ctx.flags.native_live then
      return next()
    end
  end }

-- The experiment action: rules answer with the caller's variant, no native code involved.
interceptor { name = "experiment-variant", route = "experiment",
  run = function(req, ctx)
    local variant = rollout(req.params.name, ctx.device_id, 50) and "B" or "A"
    return respond({ experiment = req.params.name, variant = variant })
  end }
