"""French (default) and English texts of the profile pages and API messages.

Kept here rather than in web/i18n/*.json because those files belong to the web client work;
the pages get the dictionary of the request's language as `tx`. French texts carry French
spacing (a no-break space before : and inside « », a narrow one before ; ! ?).
"""

from __future__ import annotations

from yanniv.french import elide

FR: dict[str, str] = {
    "board.title": "Classement",
    "board.intro": "Classement par niveau (openskill) : une partie suffit pour avoir un profil, "
    "il en faut {min} pour apparaître au classement par niveau.",
    "board.sort": "Trier par",
    "board.sort_label": "Trier par :",
    "board.game": "Jeu",
    "board.game_label": "Jeu :",
    "board.sort.rating": "Niveau",
    "board.sort.wins": "Victoires",
    "board.sort.matches": "Parties jouées",
    "board.pos": "#",
    "board.player": "Joueur",
    "board.rating": "Niveau",
    "board.rating_help": "μ ± 3σ : niveau estimé et sa marge d'incertitude ; le classement "
    "trie par μ − 3σ (estimation prudente).",
    "board.played": "Parties",
    "board.won": "Victoires",
    "board.rate": "% victoires",
    "board.empty": "Personne n'apparaît encore ici : terminez des parties pour entrer au "
    "classement.",
    "board.prev": "← Précédente",
    "board.next": "Suivante →",
    "board.page": "Page {page} sur {pages}",
    "profile.title": "Profil de {pseudo}",
    "profile.unknown": "Aucun profil ne porte ce pseudo : un pseudo devient un profil à la fin "
    "de sa première partie.",
    "profile.rating": "Niveau",
    "profile.position": "Place au classement",
    "profile.unranked": "Non classé ({n}/{min} parties)",
    "profile.matches": "Parties jouées",
    "profile.won": "Parties gagnées",
    "profile.win_rate": "Taux de victoire",
    "profile.mean_points": "Points moyens par manche",
    "profile.manches_won": "Manches gagnées",
    "profile.calls": "Annonces (réussies)",
    "profile.no_games": "Aucune partie classée pour l'instant.",
    "profile.best_total": "Meilleur total d'une partie",
    "profile.last_matches": "Dernières parties",
    "profile.no_matches": "Aucune partie enregistrée.",
    "profile.date": "Date",
    "profile.players": "Joueurs et scores",
    "profile.change": "Niveau",
    "profile.see": "Voir",
    "profile.owned": "Ce profil est à vous (ce navigateur le détient).",
    "profile.password.title": "Mot de passe",
    "profile.password.help": "Protégez votre profil par un mot de passe pour le retrouver sur "
    "un autre appareil.",
    "profile.password.has": "Un mot de passe protège ce profil ; vous pouvez le changer.",
    "profile.password.label": "Nouveau mot de passe (8 caractères au moins)",
    "profile.password.submit": "Enregistrer le mot de passe",
    "profile.login.title": "C'est votre profil ?",
    "profile.login.help": "Connectez-vous avec son mot de passe pour jouer sous ce pseudo depuis "
    "cet appareil.",
    "profile.login.label": "Mot de passe",
    "profile.login.submit": "Se connecter",
    "profile.created": "Profil créé le {date}",
    "match.title": "Partie n° {id}",
    "match.unknown": "Cette partie n'existe pas.",
    "match.room": "Salle {code}",
    "match.unrated": "Partie amicale (non classée)",
    "match.ranking": "Classement final",
    "match.rank": "Place",
    "match.total": "Total",
    "match.bot": "robot",
    "match.sheet": "Feuille de scores",
    "match.manche": "Manche",
    "match.tiebreak": "départage",
    "match.legend": "Chaque case : score de la manche (points en main) puis total. ★ a gagné la "
    "manche ; Y = a annoncé YANNIV (✓ réussi, ✗ raté).",
    "pseudo.owned": "Le pseudo « {pseudo} » appartient déjà à un autre joueur : "
    "choisissez-en un autre.",
    "pseudo.owned_login": "Le pseudo « {pseudo} » appartient déjà à un autre joueur : "
    "choisissez-en un autre, ou, si c'est le vôtre, connectez-vous depuis la page {url} avec "
    "son mot de passe.",
    "api.password_set": "Mot de passe enregistré.",
    "api.login_ok": "Connecté : ce navigateur peut maintenant jouer sous le pseudo {pseudo}.",
}

EN: dict[str, str] = {
    "board.title": "Leaderboard",
    "board.intro": "Ranked by skill (openskill): one match makes a profile, {min} are needed to "
    "appear in the skill ranking.",
    "board.sort": "Sort by",
    "board.sort_label": "Sort by:",
    "board.game": "Game",
    "board.game_label": "Game:",
    "board.sort.rating": "Skill",
    "board.sort.wins": "Wins",
    "board.sort.matches": "Matches played",
    "board.player": "Player",
    "board.rating": "Skill",
    "board.rating_help": "μ ± 3σ: estimated skill and its uncertainty; the ranking sorts by "
    "μ − 3σ (a cautious estimate).",
    "board.played": "Matches",
    "board.won": "Wins",
    "board.rate": "Win %",
    "board.empty": "Nobody here yet: finish matches to enter the leaderboard.",
    "board.prev": "← Previous",
    "board.next": "Next →",
    "board.page": "Page {page} of {pages}",
    "profile.title": "{pseudo}'s profile",
    "profile.unknown": "No profile has this name: a name becomes a profile when it finishes "
    "its first match.",
    "profile.rating": "Skill",
    "profile.position": "Leaderboard place",
    "profile.unranked": "Unranked ({n}/{min} matches)",
    "profile.matches": "Matches played",
    "profile.won": "Matches won",
    "profile.win_rate": "Win rate",
    "profile.mean_points": "Mean points per round",
    "profile.manches_won": "Rounds won",
    "profile.calls": "Calls (successful)",
    "profile.no_games": "No rated match yet.",
    "profile.best_total": "Best match total",
    "profile.last_matches": "Last matches",
    "profile.no_matches": "No match recorded.",
    "profile.date": "Date",
    "profile.players": "Players and scores",
    "profile.change": "Skill",
    "profile.see": "View",
    "profile.owned": "This profile is yours (this browser holds it).",
    "profile.password.title": "Password",
    "profile.password.help": "Protect your profile with a password to use it on another device.",
    "profile.password.has": "A password protects this profile; you may change it.",
    "profile.password.label": "New password (at least 8 characters)",
    "profile.password.submit": "Save the password",
    "profile.login.title": "Is this your profile?",
    "profile.login.help": "Log in with its password to play under this name on this device.",
    "profile.login.label": "Password",
    "profile.login.submit": "Log in",
    "profile.created": "Profile created on {date}",
    "match.title": "Match #{id}",
    "match.unknown": "This match does not exist.",
    "match.room": "Room {code}",
    "match.unrated": "Friendly match (unrated)",
    "match.ranking": "Final ranking",
    "match.rank": "Place",
    "match.total": "Total",
    "match.bot": "bot",
    "match.sheet": "Score sheet",
    "match.manche": "Round",
    "match.tiebreak": "tiebreak",
    "match.legend": "Each cell: round score (points in hand), then total. ★ won the round; "
    "Y = called YANNIV (✓ succeeded, ✗ failed).",
    "pseudo.owned": "The pseudo “{pseudo}” already belongs to another player: choose another "
    "one.",
    "pseudo.owned_login": "The pseudo “{pseudo}” already belongs to another player: choose "
    "another one, or, if it is yours, log in from the page {url} with its password.",
    "api.password_set": "Password saved.",
    "api.login_ok": "Logged in: this browser may now play as {pseudo}.",
}

TEXTS = {"fr": FR, "en": {**FR, **EN}}


def texts(lang: str) -> dict[str, str]:
    return TEXTS.get(lang, FR)


def tr(lang: str, key: str, **params: object) -> str:
    """One text with its `{name}` placeholders filled."""
    text = texts(lang).get(key, key)
    if lang == "fr":
        text = elide(text, params)
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text
