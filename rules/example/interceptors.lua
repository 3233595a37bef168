-- Interceptors: global ones run first (by priority), then group policies, then route ones.

-- Every push link is logged with its campaign, for the push team's dashboards.
interceptor { name = "push-audit", all = true, priority = 100, on_error = "continue",
  run = function(req, ctx)
    if req.source == "push" then
      log.info("push link " .. req.url .. " campaign=" .. (req.query.campaign or "none"))
    end
  end }

-- The new checkout page goes to 10% of signed-in users. (The login policy of the route's
-- group runs first, but a rule reads the context as if anything may be absent.)
interceptor { name = "checkout-v2-rollout", route = "checkout",
  run = function(req, ctx)
    local user = ctx.user
    if user ~= nil and rollout("checkout-v2", user.id, 10) then
      return redirect("myapp://checkout/v2", { keep_query = true })   -- coupons and all
    end
  end }

-- Where the native live room is switched off, it declines and the H5 room opens instead.
-- An app that sends no flags keeps the native room.
interceptor { name = "native-live-switch", route = "live.room",
  run = function(req, ctx)
    local flags = ctx.flags or {}
    if flags.live_disabled then
      return next()
    end
  end }

-- The experiment action: rules answer with the caller's variant, no native code involved.
-- A caller without a device id gets variant A.
interceptor { name = "experiment-variant", route = "experiment",
  run = function(req, ctx)
    local device = ctx.device_id
    local variant = device ~= nil and rollout(req.params.name, device, 50) and "B" or "A"
    return respond({ experiment = req.params.name, variant = variant })
  end }

-- The video tools can be switched off remotely: every video URL, whichever route takes it
-- (a URL pattern, where the interceptors above name their routes).
interceptor { name = "video-switch", pattern = "myapp://video/**",
  run = function(req, ctx)
    local flags = ctx.flags or {}
    if flags.video_disabled then
      return reject("video tools are switched off for now", 503)
    end
  end }
