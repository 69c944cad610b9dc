"""One screen per kind of thing the user does: menu, set-up, game, replay, help."""
