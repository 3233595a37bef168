-- Redirects: declared ones are compiled into the matcher and applied before routes are
-- matched, so before any policy runs; a redirect an interceptor returns runs after the
-- route's group policies.

-- Moments moved from /feed/:id to /moments/:id in 5.0; old links keep working.
redirect { from = "myapp://feed/:id", to = "myapp://moments/{id}", keep_query = true }

-- The native order page crashes on 5.3.0: send that version to the H5 page instead.
-- An interceptor, not a declared redirect: guests still log in first (group "login").
interceptor { name = "order-h5-on-5.3.0", route = "order.detail",
  run = function(req, ctx)
    -- version.compare reads what devices report: "5.3", "v5.3.0 (1234)" are 5.3.0 too.
    if ctx.app_version ~= nil and version.compare(ctx.app_version, "5.3.0") == 0 then
      return redirect("https://m.shop.example.com/orders/" .. url.encode(req.params.orderId))
    end
  end }
