"""Settings for every environment, read from the environment (12-factor).

With nothing set this runs self-contained: SQLite in var/ (WAL), a channel layer in a SQLite file
shared by the web server and the worker, Celery on kombu's filesystem transport (a real worker
and beat, no server), console email.
Set DATABASE_URL and REDIS_URL to run on PostgreSQL and Redis. `config.production` hardens it.
"""

import sys
from datetime import timedelta
from pathlib import Path

import django_stubs_ext
import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.redis_layer import redis_channel_layer

# Lets typed generics such as ModelAdmin[User] work at run time, not only under mypy.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")  # optional; real deployments set the environment

DEBUG = env.bool("DEBUG", default=True)
DEV_SECRET_KEY = "dev-only-insecure-key-change-me"
SECRET_KEY = env.str("SECRET_KEY", default=DEV_SECRET_KEY)
# The dev key is public and DEBUG shows settings and tracebacks: together they are for a
# developer's machine only. `make` (run, test, loadtest...) sets DJANGO_DEV=1, and so do the
# servers tests start; a test run or a type check is recognised by pytest or mypy being loaded
# (they read settings before any conftest could set a variable). config.production checks its own.
if (
    DEBUG
    and SECRET_KEY == DEV_SECRET_KEY
    and env.str("DJANGO_SETTINGS_MODULE", default="config.settings") == "config.settings"
    and not env.bool("DJANGO_DEV", default=False)
    and not {"pytest", "mypy"} & sys.modules.keys()
):
    raise ImproperlyConfigured(
        "DEBUG is on with the public development SECRET_KEY. Use `make run` for development "
        "(it sets DJANGO_DEV=1), or set SECRET_KEY (and DEBUG=false), or use config.production."
    )
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",  # runserver serves ASGI, websockets included
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "axes",
    "csp",
    "apps.accounts",
    "apps.rooms",
    "apps.quests",
    "apps.notifications",
    "apps.campaigns",
    "apps.play",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.headers.SiteCSPMiddleware",  # Content-Security-Policy (django-csp)
    "config.headers.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.input.RefuseUnsafeTextMiddleware",  # NUL bytes and lone surrogates: 400
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "apps.accounts.middleware.UserTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.errors.DatabaseUnavailableMiddleware",
    # Last: it turns a login refused for too many failures into the lockout answer.
    "axes.middleware.AxesMiddleware",
]

# Content-Security-Policy (django-csp): scripts and styles only from our own static files, no
# inline script or style, no eval; websockets to our own host (config/headers.py adds ws/wss).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    }
}
# Permissions-Policy: the site uses none of these browser features; clipboard-write is allowed
# for our own pages (the room's "Copy" invite button).
PERMISSIONS_POLICY: dict[str, list[str]] = {
    "accelerometer": [],
    "camera": [],
    "geolocation": [],
    "gyroscope": [],
    "magnetometer": [],
    "microphone": [],
    "payment": [],
    "usb": [],
    "clipboard-write": ["self"],
}

AUTHENTICATION_BACKENDS = [
    "apps.accounts.backends.LoginLockoutBackend",  # first: refuses a locked-out one (axes)
    "django.contrib.auth.backends.ModelBackend",
]

# The largest request body and websocket message accepted (bytes): config/server.py refuses a
# larger one before buffering it, Django's own limit is the same (docs/operations.md, "Limits").
REQUEST_MAX_BYTES = env.int("REQUEST_MAX_BYTES", default=256 * 1024)
# Request threads of one web process (config/request_threads.py): two keep the frames in step
REQUEST_RUNNING = env.int("REQUEST_RUNNING", default=2)
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_MAX_BYTES
# config/server.py: a request's headers arrive whole within this many seconds, or 408.
REQUEST_HEADER_TIMEOUT = env.float("REQUEST_HEADER_TIMEOUT", default=10.0)
# config/sockets.py: websockets one user may hold open in one web process.
WS_MAX_PER_USER = env.int("WS_MAX_PER_USER", default=20)

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "apps.notifications.context_processors.unread_notifications",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web, worker and beat share the file. WAL lets readers run beside the one writer; IMMEDIATE
    # takes the write lock when a transaction begins, so two transactions never deadlock upgrading
    # a read lock (SQLite would fail one at once with "database is locked", whatever the timeout);
    # a writer waits up to `timeout` seconds for the lock instead of failing.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # PostgreSQL parsed, analysed and planned every statement sent with its values inlined: 45%
    # of its CPU under load (perf, docs/operations.md "Speed"), the action's 16 KB state lexed as
    # a literal each time. With the values sent apart, psycopg prepares a statement a connection
    # has run DB_PREPARE_THRESHOLD times and PostgreSQL reuses its plan. Prepared statements
    # belong to a connection: the pool below (or a session pooler) keeps each to one process; a
    # transaction pooler would not (DB_PREPARE_THRESHOLD=0 turns them off).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True,
        prepare_threshold=env.int("DB_PREPARE_THRESHOLD", default=5) or None,
    )
    # Django's backend, its pool lending a connection without a round trip (config/postgresql/).
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    if env.bool("DB_POOL", default=True):
        # A bounded pool per process (psycopg_pool): a request borrows a connection and gives it
        # back instead of opening its own, and no process ever holds more than DB_POOL_MAX. A
        # request that waits DB_POOL_TIMEOUT seconds for one fails (PoolTimeout) instead of piling
        # up. Size it so that processes x DB_POOL_MAX stays below PostgreSQL's max_connections.
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections, not Django
        # The pool checks a connection as it lends it (config/postgresql/base.py: a round trip
        # only when the server has sent something) and replaces a broken one: after PostgreSQL
        # restarts, the first request on each stale pooled connection is served on a fresh one
        # instead of answering 503.
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("CONN_HEALTH_CHECKS", default=True)
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env.int("DB_POOL_MIN", default=2),
            "max_size": env.int("DB_POOL_MAX", default=8),
            "timeout": env.float("DB_POOL_TIMEOUT", default=10.0),
        }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Brute force (apps/accounts/lockout.py): AXES_FAILURE_LIMIT wrong passwords from one address
# lock that address out of logins (page and POST /api/auth/token) for AXES_COOLOFF_TIME (429);
# past LOGIN_ACCOUNT_FAILURE_LIMIT failures against one account, from anywhere, addresses it never
# signed in from may try it once per LOGIN_ACCOUNT_SLOWDOWN_SECONDS. No success resets another's
# count; a new password clears the account's.
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = ["ip_address"]  # the account's own count slows, never locks
AXES_RESET_ON_SUCCESS = False  # it would reset the address's count too (guess, log in, guess)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # tries while refused are not counted
AXES_USERNAME_CALLABLE = "apps.accounts.lockout.login_username"  # usernames ignore case
AXES_LOCKOUT_CALLABLE = "config.errors.login_locked_out"
LOGIN_ACCOUNT_FAILURE_LIMIT = env.int("LOGIN_ACCOUNT_FAILURE_LIMIT", default=10)
LOGIN_ACCOUNT_SLOWDOWN_SECONDS = env.int("LOGIN_ACCOUNT_SLOWDOWN_SECONDS", default=30)
AXES_VERBOSE = False

# Other rate limits (apps/accounts/limits.py): uses per window, per user or per address.
RATE_LIMITS = {
    "room_create": env.str("RATE_ROOM_CREATE", default="10/h"),
    "token_issue": env.str("RATE_TOKEN_ISSUE", default="20/h"),
    # Table talk per user (CHAT_RATE: this setting's older name, still read).
    "chat": env.str("RATE_CHAT", default=env.str("CHAT_RATE", default="10/m")),
    "ws_refresh": env.str("RATE_WS_REFRESH", default="30/m"),
}

# Personal API tokens (POST /api/auth/token) stop working this many days after they are issued.
API_TOKEN_TTL_DAYS = env.int("API_TOKEN_TTL_DAYS", default=30)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

REDIS_URL = env.str("REDIS_URL", default="")
# Seat views kept in the shared cache for the other web processes (apps/play/view_cache.py): with
# Redis. The embedded default serves from one process, and its file cache would gain a file an
# action (culled with the rate-limit counts past MAX_ENTRIES).
SHARED_SEAT_VIEWS = env.bool("SHARED_SEAT_VIEWS", default=bool(REDIS_URL))
# Seconds any request-side use of Redis may take (pokes, broker publishes, /healthz): a frozen
# Redis must never hold a request (docs/operations.md, "Outages").
REDIS_TIMEOUT = env.float("REDIS_TIMEOUT", default=0.5)
# Seconds each /healthz check may take (they run side by side): the answer comes within ~2 s.
HEALTH_CHECK_TIMEOUT = env.float("HEALTH_CHECK_TIMEOUT", default=1.5)

if REDIS_URL:
    CHANNEL_LAYERS = {"default": redis_channel_layer(url=REDIS_URL, connect_timeout=REDIS_TIMEOUT)}
else:
    # Web server and worker are separate processes even on the embedded default: they meet in a
    # SQLite file (config/channel_layer.py says why this and not an in-process layer).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.SQLiteChannelLayer",
            "CONFIG": {
                "path": env.str("CHANNEL_LAYER_FILE", default=str(VAR_DIR / "channels.sqlite3"))
            },
        }
    }

# The cache holds short-lived, invalidatable lookups (API tokens) and the rate-limit counters
# (apps/accounts/limits.py). Every process shares it, so deleting an entry (a revoked token)
# takes effect everywhere at once and a limit holds across processes: Redis when REDIS_URL is
# set (its short socket timeouts keep a hung Redis from hanging requests: token lookups fall back
# to the database, rate limits fail open); otherwise files in var/cache, which the web server,
# the worker and `manage.py` share (an in-memory cache would be one process's alone).
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.ReusedClientRedisCache",  # Django's, one client a pool
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "cache",
            "OPTIONS": {"socket_timeout": REDIS_TIMEOUT, "socket_connect_timeout": REDIS_TIMEOUT},
        }
    }
    # django-ratelimit does not list Django's own Redis cache (ours is it, with one client a
    # pool), which counts atomically.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
else:
    # Files count without atomic increments: two processes counting the same use at the same
    # instant may count it once. A limit is then a little generous, never lost.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": env.str("CACHE_DIR", default=str(VAR_DIR / "cache")),
            "OPTIONS": {"MAX_ENTRIES": 20000},  # culling would forget rate-limit counts early
        }
    }
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]

# Celery. Without Redis, kombu's filesystem transport lets a real worker and beat run with no
# server at all (eager mode would hide serialisation and on_commit mistakes, so we avoid it).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "filesystem://")
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
if CELERY_BROKER_URL.startswith("filesystem://"):
    # Tests that start their own worker give it a folder of its own.
    CELERY_FILESYSTEM_DIR = Path(env.str("CELERY_FILESYSTEM_DIR", default=str(VAR_DIR / "celery")))
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_FILESYSTEM_DIR / "queue"),
        "data_folder_out": str(CELERY_FILESYSTEM_DIR / "queue"),
        "processed_folder": str(CELERY_FILESYSTEM_DIR / "processed"),
        "control_folder": str(CELERY_FILESYSTEM_DIR / "control"),
        "store_processed": False,
    }
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # A publish from a request gives up after REDIS_TIMEOUT, once, instead of hanging on a
    # frozen Redis; what it carried waits in an outbox for the sweeps (notifications).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "socket_timeout": REDIS_TIMEOUT,
        "socket_connect_timeout": REDIS_TIMEOUT,
    }
    CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_TIMEOUT
    CELERY_TASK_PUBLISH_RETRY = False
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# A worker's standard output goes to its log unless this is off: `make run` turns it off, so the
# emails the console backend prints reach the terminal while the log goes to var/celery.log.
CELERY_WORKER_REDIRECT_STDOUTS = env.bool("CELERY_WORKER_REDIRECT_STDOUTS", default=True)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Turns over days: reminders and timeouts (apps/play/turns.py). A sweep nobody ran within
    # the minute is dropped; the next one does the same work.
    "play.sweep_turns": {"task": "play.sweep_turns", "schedule": 60.0, "options": {"expires": 55}},
    # The notification outbox: what the broker could not take when it was written.
    "notifications.deliver_pending": {
        "task": "notifications.deliver_pending",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    # Daily digests, each at NOTIFICATIONS_DIGEST_HOUR in its reader's time zone.
    "notifications.send_digests": {
        "task": "notifications.send_digests",
        "schedule": 3600.0,
        "options": {"expires": 3500},
    },
}
RATELIMIT_FAIL_OPEN = True  # a cache that cannot count lets the message through

# Solo rooms: the monster AI's pause between two actions, so that open boards draw each step.
AI_STEP_SECONDS = env.float("AI_STEP_SECONDS", default=0.25)

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Ashen Vault <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The address players reach the site at: every link in an email is built from it
# (`make run` sets it from HOST and PORT).
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
NOTIFICATIONS_DIGEST_HOUR = env.int("NOTIFICATIONS_DIGEST_HOUR", default=8)
# A process's notices committed within this many seconds go to the worker as one delivery task
# (apps/core/gathering.py); 0 sends each commit's at once.
NOTIFICATIONS_GATHER_SECONDS = env.float("NOTIFICATIONS_GATHER_SECONDS", default=0.25)
# A game socket whose heartbeat (every 30 s) is older than this is gone.
NOTIFICATIONS_PRESENCE_TTL = timedelta(seconds=env.int("NOTIFICATIONS_PRESENCE_TTL", default=150))

# Web push (apps/notifications/push/): the VAPID key pair. Production sets both; without them a
# development copy uses VAPID_FILE, written by `manage.py vapid_keys` (`make run` runs it).
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_FILE = env.str("VAPID_FILE", default=str(VAR_DIR / "vapid.json"))
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="")  # mailto: or https:; default from SITE_URL
# Requests to addresses users give (chat webhooks, push endpoints: apps/notifications/outbound.py)
# go only to public https hosts; True lets tests reach their own servers on 127.0.0.1.
OUTBOUND_ALLOW_PRIVATE = env.bool("OUTBOUND_ALLOW_PRIVATE", default=False)
OUTBOUND_TIMEOUT = env.float("OUTBOUND_TIMEOUT", default=10.0)
# Chat webhooks: retries after the first try, the first backoff (doubling each time).
WEBHOOK_RETRIES = env.int("WEBHOOK_RETRIES", default=5)
WEBHOOK_BACKOFF_SECONDS = env.int("WEBHOOK_BACKOFF_SECONDS", default=30)
# Each person's vacation allowance: days a year their turns may wait instead of timing out
# (rooms that spend vacation), "away until" included (apps/play/timebank.py).
VACATION_DAYS_PER_YEAR = env.int("VACATION_DAYS_PER_YEAR", default=28)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A bad Host header: one warning line per request, no traceback (config/errors.py); Redis
    # away: one line a minute from the channel layer, not a traceback a second (redis_layer.py).
    "filters": {
        "bad_host_once": {"()": "config.errors.BadHostOnce"},
        "redis_away_once": {"()": "config.redis_layer.RedisAwayOnce"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        "django.security.DisallowedHost": {"filters": ["bad_host_once"]},
        "channels_redis.pubsub": {"filters": ["redis_away_once"]},
    },
}
