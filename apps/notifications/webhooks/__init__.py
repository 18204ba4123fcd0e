"""Chat webhooks: a room's (or campaign's) news posted to Discord or a Slack-compatible chat.

The URL is a secret (whoever has it can post to the channel): the host sets it, and it is never
shown back, only whether one is set and its last four characters (`webhook_hint`). It must be an
https address of a public host (apps/notifications/outbound.py: no private or loopback
addresses, checked when set and before each post); any such host is accepted, since
Slack-compatible chats (Mattermost, Rocket.Chat, Zulip's Slack endpoint...) live on their users'
own domains. Discord's addresses (discord.com, discordapp.com, or a path under
/api/webhooks/) get Discord's message format, any other Slack's.

A line is an outbox row (`WebhookMessage`) written in the transaction that changed the game and
posted after commit by the `notifications.webhook_post` task: a 5xx, 429 or network failure is
retried with exponential backoff (Celery retry, `WEBHOOK_RETRIES` times, from
`WEBHOOK_BACKOFF_SECONDS`); any other refusal, or the last failure, gives up and tells the host
(a `webhook` notification linking to where they mend it). Mentions: only the person who must
act, by their chat handle, and no mass mention can ride in on a room's name (`@everyone` is
defused, Slack's `<!channel>` escaped).
"""
