"""The games the site plays: each one a pure package (its wing) with one public face."""
