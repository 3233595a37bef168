-- Redirects: compiled into the matcher, applied before routes are matched.

-- Moments moved from /feed/:id to /moments/:id in 5.0; old links keep working.
redirect { from = "myapp://feed/:id", to = "myapp://moments/{id}", keep_query = true }

-- The native order page crashes on 5.3.0: send that version to the H5 page instead.
redirect {
  from = "myapp://order/:orderId([A-Z]{2}[0-9]{6})",
  to = "https://m.shop.example.com/orders/{orderId}",
  when = function(req, ctx)
    return ctx.app_version == "5.3.0"
  end,
}
