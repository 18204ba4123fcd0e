"""Web push (RFC 8030, payloads encrypted per RFC 8291, VAPID per RFC 8292) through pywebpush.

- `keys.py`: the site's VAPID key pair: the environment in production (`VAPID_PRIVATE_KEY`,
  `VAPID_PUBLIC_KEY`), else `var/vapid.json`, made once by `manage.py vapid_keys` (`make run`).
- `send.py`: a notification to every browser its person turned push on in; a subscription the
  push service answers 404 or 410 for is dropped.
- `views.py`: the service worker at the site's root (`/sw.js`, scope `/`), the web app manifest
  and icons, and a browser's subscribe / unsubscribe.
- `icons.py`: the app icons, drawn in code (SVG, and PNG written with zlib).
"""
