"""SCOOP (Parker Brothers, 1956) through the engine: setup -> claims, verdicts, sales -> press."""

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from walk import Walk

from controller.games import ledger
from controller.games.base import GameError
from controller.games.scoop1956 import GAME as game, rules
from controller.oracles.editor import SIGNALS

ANN, BOB, CAT, DAN = 0, 1, 2, 3
SMALL_PAGE = {"stories": {"sport": 1}, "advertisements": {"advertisement": 1}}


def start(names=("Ann", "Bob", "Cat"), **options):
    state = game.initial()
    for ev in game.setup([{"name": n, "colour": None, "team": None} for n in names], options):
        state = game.apply(state, ev)
    return state


def act(state, action):
    events = game.decide(state, action, random.Random(0))
    for ev in events:
        state = game.apply(state, ev)
    return state, events


def cash(state):
    return [p["cash"] for p in game.view(state)["players"]]


def spend(state, p, amount):
    """Test shortcut: player p has already spent ``amount`` on cards (a transfer to the bank)."""
    return game.apply(state, ledger.transfer(rules.account(p), ledger.BANK, amount, "earlier purchases"))


def story(state, p, story_type, signal, value=None, slot=None, cards=3):
    state, _ = act(state, {"type": "claim", "player": p, "story_type": story_type, "cards_from_hand": cards})
    state, _ = act(state, {"type": "verdict", "signal": signal, "digit": 5})
    if value is not None:
        place = {"type": "place", "player": p, "value": value}
        if slot is not None:
            place["slot"] = slot
        state, _ = act(state, place)
    return state


def exchange(state, p):
    return act(state, {"type": "exchange", "player": p})[0]


def until(state, p):
    """Everyone else exchanges a card until it is p's turn again."""
    while state["turn"] != p:
        state = exchange(state, state["turn"])
    return state


def page_values(state, p, slot):
    page = {s["slot"]: s for s in game.view(state)["players"][p]["page"]}
    return [x["value"] for x in page[slot]["stories"]]


def test_the_editor_signals_come_from_the_editor():
    """The verdict's codes are the telephone's signals, one source: THREE STARS, EXTRA, PRESS,
    SYND, OK, SCRAP IT, X, !!!."""
    assert {rules.THREE_STARS, rules.PRESS} | set(rules.FEES) <= set(SIGNALS)


def test_each_player_gets_three_thousand_from_the_bank_and_the_dealers_left_plays_first():
    """'He gives each player including himself a blank newspaper page and $3,000' ... 'The player
    to the left of the dealer plays first.'"""
    view = game.view(start(dealer=1))
    assert [p["cash"] for p in view["players"]] == [3000, 3000, 3000]
    assert view["bank"] == -9000 and view["money_total"] == 0
    assert view["turn_name"] == "Cat"
    assert game.view(start())["turn_name"] == "Ann"          # default dealer: the last seat
    # "One player is chosen to deal": which one is the table's; the last seat is newsdesk's choice
    dealer = next(o for o in game.options if o["name"] == "dealer")
    assert dealer["default"] is None and dealer["newsdesk"]
    with pytest.raises(GameError, match="2 to 6 players, not 1"):
        start(names=("Ann",))
    with pytest.raises(GameError, match="2 to 6 players, not 7"):
        start(names=tuple("ABCDEFG"))
    with pytest.raises(GameError, match="“Who deals” is the seat"):
        start(dealer=3)
    with pytest.raises(GameError, match="no option colour_scheme"):
        start(colour_scheme=1)


def test_an_accepted_story_is_placed_with_its_printed_value_and_the_refill_is_free():
    """'If, as a result of his phone call, he receives a favorable decision, he is entitled to take a
    story card ... and makes up his hand by drawing the three top cards from the draw pile free of
    charge.' OK: 'Your Story Has Been Passed For Publication.' Take your story."""
    s = story(start(), ANN, "crime", "OK")
    assert game.view(s)["step"] == "place"
    assert game.offers(s) == [{"type": "place", "player": ANN, "slot": "crime", "enter": ["value"],
                               "labels": {"value": "Printed value of the crime story ($)"}}]
    s, ev = act(s, {"type": "place", "player": ANN, "value": 400})
    assert page_values(s, ANN, "crime") == [400]
    assert cash(s) == [3000, 3000, 3000]
    assert ev[-1] == {"type": "turn_passed", "player": ANN, "next": BOB}


@pytest.mark.parametrize("signal", ["SCRAP IT", "X", "!!!"])
@pytest.mark.parametrize("cards,cost", [(3, 300), (1, 100)])
def test_a_refused_story_charges_a_hundred_for_each_card_drawn(signal, cards, cost):
    """'If the story is not acceptable to the editor ... He still must discard the three cards ...
    and draw three new cards ... In this case, however, he must pay $100 for each card that he
    draws.' With reserve cards 'he draws the necessary cards to complete his hand but must pay
    $100 for each card so drawn.' (Two reserve cards, bought back for $200, and one from the hand.)"""
    s = start() if cards == 3 else until(reserved(start(), ANN, 3 - cards, 1), ANN)
    before = cash(s)[ANN]
    s = story(s, ANN, "sport", signal, cards=cards)
    assert cash(s) == [before - cost, 3000, 3000]
    assert page_values(s, ANN, "sport") == []
    assert s["turn"] == BOB and game.view(s)["bank"] == -9000 + (3000 - before) + cost


@pytest.mark.parametrize("signal,fee", [("EXTRA", 200), ("SYND", 500)])
def test_extra_and_synd_collect_from_each_other_player_and_the_story_is_taken(signal, fee):
    """EXTRA: 'Take your story and in addition collect $200 from each player.' SYND: 'Take your
    story and in addition collect $500 from each player.'"""
    s = story(start(names=("Ann", "Bob", "Cat", "Dan"), dealer=ANN), BOB, "society", signal)
    assert cash(s) == [3000 - fee, 3000 + 3 * fee, 3000 - fee, 3000 - fee]
    s, _ = act(s, {"type": "place", "player": BOB, "value": 300})
    assert page_values(s, BOB, "society") == [300] and s["turn"] == CAT


def test_a_player_short_of_an_extra_pays_what_they_hold_by_default():
    """The rules don't say what happens when a player can't pay the $200 (newsdesk's choice,
    option short_of_cash: by default they pay what they hold)."""
    s = spend(start(), CAT, 2950)
    s = story(s, ANN, "sport", "EXTRA", value=200)
    assert cash(s) == [3250, 2800, 0]
    assert min(cash(s)) >= 0 and game.view(s)["money_total"] == 0


def test_short_of_cash_bankruptcy_makes_the_payer_sell_to_the_left_first():
    """With short_of_cash=bankruptcy the payer who can't pay is bankrupt: 'he must sell to other
    players in the game at list price one or more of the stories ... The player to his left has
    the first opportunity of buying.'"""
    s = start(short_of_cash="bankruptcy")
    s = story(s, ANN, "sport", "OK", value=500)        # Ann's sport story, $500
    s = exchange(s, BOB)
    s = exchange(s, CAT)
    s = spend(s, ANN, 2900)                            # Ann holds $100
    s = story(s, ANN, "crime", "OK", value=100)        # ... and a $100 crime story
    s = story(s, BOB, "local", "EXTRA")
    assert game.view(s)["step"] == "bankrupt"
    assert "Ann is bankrupt: owes $200 and holds $100; sell a story or advertisement at list price" in \
        game.view(s)["waiting_for"]     # "one or more of the stories or advertisements which he has already completed"
    with pytest.raises(GameError, match="Bob can't take a story now: Ann is bankrupt"):
        game.decide(s, {"type": "place", "player": BOB, "value": 300}, None)
    s, _ = act(s, {"type": "sell", "player": ANN, "story": 2})          # the crime story, $100
    assert game.view(s)["sale"]["asking_name"] == "Bob"                # Ann's left
    assert game.view(s)["waiting_for"] == "Bob: buy Ann's crime story for $100, or pass"
    with pytest.raises(GameError, match="Cat can't buy: Bob is asked first"):
        game.decide(s, {"type": "buy", "player": CAT}, None)
    s, _ = act(s, {"type": "buy", "player": BOB})
    assert page_values(s, BOB, "crime") == [100]
    assert cash(s) == [0, 3000 - 100 + 200 + 200, 2800]              # Ann sold and paid the $200
    assert game.view(s)["step"] == "place"
    s, _ = act(s, {"type": "place", "player": BOB, "value": 300})
    assert s["turn"] == CAT and game.view(s)["money_total"] == 0


def test_three_stars_takes_a_three_star_story_or_the_one_dialed_for():
    """THREE STARS: 'Take a Three Star Story Card or the story dialed for.'"""
    s = story(start(), ANN, "crime", "THREE STARS")
    assert {o.get("slot") for o in game.offers(s)} == {"three_star", "crime"}
    # the two printed-value boxes show at once: each is named for its story (both said "Printed value ($)")
    assert [o["labels"]["value"] for o in game.offers(s)] == ["Printed value of the Three Star story ($)",
                                                               "Printed value of the crime story ($)"]
    with pytest.raises(GameError, match="say which story to take after THREE STARS"):
        game.decide(s, {"type": "place", "player": ANN, "value": 900}, None)
    s, _ = act(s, {"type": "place", "player": ANN, "value": 900, "slot": "three_star"})
    assert page_values(s, ANN, "three_star") == [900] and page_values(s, ANN, "crime") == []
    s = exchange(exchange(s, BOB), CAT)
    s = story(s, ANN, "crime", "THREE STARS", value=300, slot="crime")
    assert page_values(s, ANN, "three_star") == [900] and page_values(s, ANN, "crime") == [300]


def test_three_star_stories_come_only_from_the_editor():
    """'Three Star Stories are determined solely by the editor and can be obtained only as a
    result of his decision over the telephone.'"""
    with pytest.raises(GameError, match="only the editor gives one"):
        game.decide(start(), {"type": "claim", "player": ANN, "story_type": "three_star"}, None)
    s = story(start(), ANN, "crime", "OK")
    with pytest.raises(GameError, match="claimed a crime story; it goes in that slot"):
        game.decide(s, {"type": "place", "player": ANN, "value": 900, "slot": "three_star"}, None)


def _with_star_stories(s):
    """Ann: a Three Star story ($1,000) and two Star stories ($600, $400)."""
    s = story(s, ANN, "star", "THREE STARS", value=1000, slot="three_star")
    for value in (600, 400):
        s = until(s, ANN)
        s = story(s, ANN, "star", "OK", value=value)
    return until(s, ANN)


def test_a_second_three_star_story_puts_the_star_stories_up_for_sale_left_player_first():
    """'Should a player already have one (or two) Single Star Stories in place when he obtains a
    second Three Star Story, he may remove it to make room for the Three Star Story, and offer it
    for sale at its printed value, the player to his left having the first opportunity to buy.'"""
    s = _with_star_stories(start())
    s = story(s, ANN, "sport", "THREE STARS", value=1200, slot="three_star")
    assert page_values(s, ANN, "three_star") == [1000, 1200] and page_values(s, ANN, "star") == []
    sale = game.view(s)["sale"]
    assert (sale["asking_name"], sale["price"], sale["why"]) == ("Bob", 600, "star")
    assert game.offers(s) == [{"type": "buy", "player": BOB}, {"type": "pass", "player": BOB}]
    s, _ = act(s, {"type": "pass", "player": BOB})
    s, _ = act(s, {"type": "buy", "player": CAT})
    assert page_values(s, CAT, "star") == [600] and cash(s) == [3600, 3000, 2400]
    assert game.view(s)["sale"]["story"]["value"] == 400          # the other Star story next
    s, _ = act(s, {"type": "pass", "player": BOB})
    s, ev = act(s, {"type": "pass", "player": CAT})
    assert [e["type"] for e in ev][-2:] == ["unsold", "turn_passed"]
    assert s["turn"] == BOB


def test_an_unsold_star_story_counts_at_half_its_printed_value():
    """'If no player wishes to buy the Star Story he may keep it, and at the end of the game
    count it in his total score at one-half of its printed value.'"""
    s = _with_star_stories(start(names=("Ann", "Bob")))
    s = story(s, ANN, "sport", "THREE STARS", value=1200, slot="three_star")
    s, _ = act(s, {"type": "pass", "player": BOB})
    s, _ = act(s, {"type": "pass", "player": BOB})
    ann = game.view(s)["players"][ANN]
    assert [k["value"] for k in ann["kept"]] == [600, 400] and ann["unsold_value"] == 500
    s = exchange(s, BOB)
    s = story(s, ANN, "sport", "PRESS")
    s, _ = act(s, {"type": "go_to_press", "player": ANN})
    total = next(t for t in game.view(s)["totals"] if t["seat"] == ANN)
    assert total == {"seat": ANN, "name": "Ann", "out": False, "cash": 3000 + 1500,
                     "stories": 2200, "unsold": 500, "total": 3000 + 1500 + 2200 + 500}


def test_no_star_story_while_the_second_three_star_fills_its_spaces():
    """'The second is optional and can be played in the two spaces marked "Star Story"': while it
    is there, a Star story has no space (newsdesk refuses the claim)."""
    s = story(start(), ANN, "sport", "THREE STARS", value=1000, slot="three_star")
    s = exchange(exchange(s, BOB), CAT)
    s = story(s, ANN, "sport", "THREE STARS", value=800, slot="three_star")
    s = exchange(exchange(s, BOB), CAT)
    with pytest.raises(GameError, match="hold a second Three Star story"):
        game.decide(s, {"type": "claim", "player": ANN, "story_type": "star"}, None)
    assert {"type": "claim", "player": ANN, "story_type": "star"} not in game.offers(s)


def test_substitution_keeps_the_two_most_valuable_stories_of_a_type():
    """'On obtaining an additional story he may look at the value of the cards which he already
    played and the new one which he has obtained and keep the two which have the highest value.
    The story which has the least value is placed at the bottom of the appropriate pile, and is not
    counted in the player's score.'"""
    s = start(names=("Ann", "Bob"))
    for value in (300, 500, 400, 100):
        s = story(s, ANN, "crime", "OK", value=value)
        s = exchange(s, BOB)
    assert sorted(page_values(s, ANN, "crime")) == [400, 500]
    assert game.view(s)["players"][ANN]["stories_value"] == 900
    s = story(s, ANN, "sport", "THREE STARS", value=700, slot="three_star")
    s = exchange(s, BOB)
    s = story(s, ANN, "sport", "THREE STARS", value=900, slot="three_star")
    s = exchange(s, BOB)
    s, ev = act(s, {"type": "claim", "player": ANN, "story_type": "sport"})
    s, _ = act(s, {"type": "verdict", "signal": "THREE STARS"})
    s, ev = act(s, {"type": "place", "player": ANN, "value": 800, "slot": "three_star"})
    assert sorted(page_values(s, ANN, "three_star")) == [800, 900]
    assert ev[0]["dropped"]["value"] == 700
    # on equal values the story in place stays (newsdesk's reading): said so, not "worth more"
    before = s
    s = exchange(s, BOB)
    s, _ = act(s, {"type": "claim", "player": ANN, "story_type": "crime"})
    s, _ = act(s, {"type": "verdict", "signal": "OK"})
    s, ev = act(s, {"type": "place", "player": ANN, "value": 400})
    said = game.describe(s, {"type": "place", "player": ANN, "value": 400}, ev)
    assert sorted(page_values(s, ANN, "crime")) == [400, 500] and before is not s
    assert said.endswith("the stories on the page are worth as much (on equal values the story in place stays: "
                         "newsdesk's reading)"), said


def test_reserve_plays_buy_cards_at_a_hundred_each_and_exchanges_are_free():
    """'Play one or two cards from his hand to the "reserve" section ... and replace these cards by
    buying from the top of the draw pile at a price of $100 per card.' 'Exchange a card ... This
    play costs nothing.'"""
    s, _ = act(start(), {"type": "reserve", "player": ANN, "cards": 2})
    s, _ = act(s, {"type": "reserve", "player": BOB, "cards": 1})
    s = exchange(s, CAT)
    assert cash(s) == [2800, 2900, 3000] and s["turn"] == ANN
    with pytest.raises(GameError, match="one or two cards to the reserve, not 3"):
        game.decide(s, {"type": "reserve", "player": ANN, "cards": 3}, None)
    broke = spend(s, ANN, 2750)
    with pytest.raises(GameError, match=r"Ann has \$50 and can't pay \$100"):
        game.decide(broke, {"type": "reserve", "player": ANN, "cards": 1}, None)
    assert [o for o in game.offers(broke) if o["type"] == "reserve"] == []


def test_lines_down_makes_both_players_buy_their_hands():
    """'This is done by an opposing player who throws the cards which he holds in his hand onto the
    discard pile and calls "Lines Down." The player who is about to make the telephone call must
    then throw onto the discard pile the set of cards ... Both players must then make up their
    hands by buying cards from the stock pile.'"""
    s = until(reserved(start(), ANN, 1, 1), ANN)                      # Ann: $100 for the reserve
    s, _ = act(s, {"type": "claim", "player": ANN, "story_type": "sport", "cards_from_hand": 2})
    with pytest.raises(GameError, match="Ann can't call Lines Down on their own call"):
        game.decide(s, {"type": "lines_down", "player": ANN}, None)
    s, ev = act(s, {"type": "lines_down", "player": CAT})
    assert cash(s) == [2700, 3000, 2700]
    assert ev[0]["type"] == "blocked" and s["turn"] == BOB
    poor = spend(act(start(), {"type": "claim", "player": ANN, "story_type": "sport"})[0], BOB, 2800)
    with pytest.raises(GameError, match=r"Bob has \$200 and can't buy the 3 cards a Lines Down block costs "
                                        r"\(\$300; newsdesk's reading: a play that buys cards needs the cash in hand"):
        game.decide(poor, {"type": "lines_down", "player": BOB}, None)


def test_a_verdict_needs_a_pending_claim():
    """The editor answers a call: a verdict with no claim is refused with a sentence that says so."""
    with pytest.raises(GameError, match="no claim is pending"):
        game.decide(start(), {"type": "verdict", "signal": "OK", "digit": 3}, None)
    s, _ = act(start(), {"type": "claim", "player": ANN, "story_type": "sport"})
    for bad, message in [({"signal": "MAYBE"}, "signal is one of"), ({"signal": "OK", "digit": 10}, "digit is 0-9"),
                         ({"signal": ["OK"]}, "signal is one of"), ({}, "signal is one of")]:
        with pytest.raises(GameError, match=message):
            game.decide(s, dict(bad, type="verdict"), None)


def test_press_lets_the_caller_choose_the_story_or_going_to_press():
    """PRESS: 'Either take your story or go to press, thus ending the game.' 'Whenever a player has
    "Gone to Press" ... he receives a bonus of $1,500 ... All players immediately add the amount of
    money that they have on hand and the value of the stories ... The player having the highest
    total value wins the game. The player who first went to press is not necessarily the player who
    wins the game.'"""
    s = story(start(), ANN, "sport", "SYND", value=500)            # Ann 4000 (+500 story)
    s = story(s, BOB, "crime", "OK", value=2000)                   # Bob 2500 (+2000)
    s = story(s, CAT, "local", "PRESS")
    offered = [o["type"] for o in game.offers(s)]
    assert offered == ["place", "go_to_press"]
    taken, _ = act(s, {"type": "place", "player": CAT, "value": 200})
    assert taken["phase"] == "turn" and taken["turn"] == ANN
    s, ev = act(s, {"type": "go_to_press", "player": CAT})
    assert [e["type"] for e in ev] == ["went_to_press", "transfer", "counted"]
    view = game.view(s)
    assert [t["total"] for t in view["totals"]] == [4500, 4500, 2500 + 1500]
    assert view["winner_names"] == ["Ann", "Bob"] and view["press"] == {"player": CAT, "how": "press", "bonus": True}
    assert game.offers(s) == []
    with pytest.raises(GameError, match="gone to press: Ann and Bob won"):
        game.decide(s, {"type": "exchange", "player": ANN}, None)
    ok = story(start(), ANN, "sport", "OK")
    with pytest.raises(GameError, match="only go to press when the editor shows PRESS"):
        game.decide(ok, {"type": "go_to_press", "player": ANN}, None)


def test_a_full_page_goes_to_press():
    """'the game is ended when any one player has completely filled his newspaper page with stories
    and advertisements. This player announces that he has "Gone to Press."'"""
    s = start(names=("Ann", "Bob"), page=SMALL_PAGE)
    s = story(s, ANN, "sport", "THREE STARS", value=1000, slot="three_star")
    s = exchange(s, BOB)
    s = story(s, ANN, "sport", "OK", value=300)
    s = exchange(s, BOB)
    s = story(s, ANN, "star", "OK", value=400)
    s = exchange(s, BOB)
    s, ev = act(s, {"type": "advertise", "player": ANN, "ad_type": "advertisement", "value": 250})
    assert game.view(s)["players"][ANN]["page_full"] is False         # one Star Story space left
    s = exchange(s, BOB)
    s, ev = act(s, {"type": "claim", "player": ANN, "story_type": "star"})
    s, ev = act(s, {"type": "verdict", "signal": "OK"})
    s, ev = act(s, {"type": "place", "player": ANN, "value": 350})
    assert ev[-3] == {"type": "went_to_press", "player": ANN, "how": "full_page"}
    assert game.view(s)["winner_names"] == ["Ann"]
    assert game.view(s)["totals"][ANN]["total"] == 3000 + 1500 + 1000 + 300 + 400 + 250 + 350


def test_a_bankrupt_player_sells_at_list_price_or_drops_out():
    """'If a player runs out of money, and is unable to purchase enough cards to complete his hand,
    he is bankrupt ... If he can sell one or more of his stories at list price, and for sufficient
    money to enable him to complete his hand, he may continue in the game. If no player in the game
    is willing to purchase a story or stories, the bankrupt player must drop out of the game ...
    His cards are removed from his newspaper and placed at the bottom of the proper piles.'"""
    s = start()
    s = story(s, ANN, "crime", "OK", value=400)
    s = exchange(exchange(s, BOB), CAT)
    s = spend(s, ANN, 2850)                                             # Ann holds $150
    s = story(s, ANN, "sport", "X")                                     # owes $300 for 3 cards
    assert game.view(s)["debts"][0]["owes"] == 300
    assert game.offers(s) == [{"type": "sell", "player": ANN, "story": 1}]
    with pytest.raises(GameError, match="must first offer #1 crime"):
        game.decide(s, {"type": "drop_out", "player": ANN}, None)
    s, _ = act(s, {"type": "sell", "player": ANN, "story": 1})
    s, _ = act(s, {"type": "pass", "player": BOB})
    s, ev = act(s, {"type": "pass", "player": CAT})
    assert ev[-1]["type"] == "unsold" and page_values(s, ANN, "crime") == [400]
    with pytest.raises(GameError, match="nobody bought Ann's crime story"):
        game.decide(s, {"type": "sell", "player": ANN, "story": 1}, None)
    assert game.offers(s) == [{"type": "drop_out", "player": ANN}]
    dropping = s
    s, ev = act(s, {"type": "drop_out", "player": ANN})
    # the rules say nothing of his money: where it goes is said as newsdesk's reading
    assert "(newsdesk's reading: the rules say only that his cards go back)" in game.describe(
        dropping, {"type": "drop_out", "player": ANN}, ev)
    view = game.view(s)
    assert view["players"][ANN]["out"] and view["players"][ANN]["stories_value"] == 0
    assert cash(s) == [0, 3000, 3000] and view["money_total"] == 0 and s["turn"] == BOB
    s = exchange(exchange(s, BOB), CAT)
    assert s["turn"] == BOB                                             # Ann's seat is skipped
    with pytest.raises(GameError, match="Ann has dropped out"):
        game.decide(s, {"type": "exchange", "player": ANN}, None)


def test_an_advertisement_up_for_sale_is_called_an_advertisement_not_a_story():
    """A bankrupt player must 'sell ... one or more of the stories or advertisements which he has
    already completed': an advertisement up for sale was asked about as "Cat's advertisement
    story", though the log said "the $150 advertisement". The view gives each story's words, so
    the screen says what the log says."""
    s = start(short_of_cash="bankruptcy")
    s = exchange(exchange(s, ANN), BOB)
    s, _ = act(s, {"type": "advertise", "player": CAT, "value": 150})
    s = spend(s, CAT, 3000)
    s = story(s, ANN, "sport", "SYND")                                  # Cat owes $500
    assert game.offers(s) == [{"type": "sell", "player": CAT, "story": 1}]
    offered = game.view(s)
    s, _ = act(s, {"type": "sell", "player": CAT, "story": 1})
    view = game.view(s)
    assert view["waiting_for"] == "Ann: buy Cat's advertisement for $150, or pass"
    assert [x["words"] for slot in offered["players"][CAT]["page"] for x in slot["stories"]] == ["advertisement"]
    assert view["sale"]["story"] == {"id": 1, "kind": "advertisement", "value": 150, "words": "advertisement"}
    s = story(start(page={"stories": {"sport": 1}, "advertisements": {"want ad": 1, "classified": 1}}),
              ANN, "sport", "OK", value=200)
    assert [x["words"] for slot in game.view(s)["players"][ANN]["page"] for x in slot["stories"]] == ["sport story"]
    s = exchange(exchange(s, BOB), CAT)
    s, _ = act(s, {"type": "advertise", "player": ANN, "ad_type": "want ad", "value": 100})
    s = exchange(exchange(s, BOB), CAT)
    s, _ = act(s, {"type": "advertise", "player": ANN, "ad_type": "classified", "value": 100})
    assert sorted(x["words"] for slot in game.view(s)["players"][ANN]["page"] for x in slot["stories"]) == [
        "classified advertisement", "sport story", "want ad"]


def test_a_bankrupt_player_who_sells_enough_pays_and_plays_on():
    """'If he can sell one or more of his stories at list price, and for sufficient money to
    enable him to complete his hand, he may continue in the game.'"""
    s = start(names=("Ann", "Bob"))
    s = story(s, ANN, "crime", "OK", value=400)
    s = exchange(s, BOB)
    s = spend(s, ANN, 2900)
    s = story(s, ANN, "sport", "SCRAP IT")
    s, _ = act(s, {"type": "sell", "player": ANN, "story": 1})
    s, ev = act(s, {"type": "buy", "player": BOB})
    assert [e["type"] for e in ev][-3:] == ["transfer", "settled", "turn_passed"]
    assert cash(s) == [200, 2600] and s["turn"] == BOB and not game.view(s)["debts"]
    assert page_values(s, BOB, "crime") == [400]


def test_the_last_paper_left_goes_to_press():
    """When every other player has dropped out the game can't go on (newsdesk's choice: the last
    paper goes to press and takes the bonus)."""
    s = spend(start(names=("Ann", "Bob")), ANN, 3000)
    s = story(s, ANN, "sport", "!!!")
    s, ev = act(s, {"type": "drop_out", "player": ANN})
    assert {"type": "went_to_press", "player": BOB, "how": "last_paper"} in ev
    assert game.view(s)["winner_names"] == ["Bob"]
    assert cash(s)[BOB] == 3000 + 1500
    # the table's other reading: the game ends there, and nobody went to press first
    s = spend(start(names=("Ann", "Bob"), last_paper="no_bonus"), ANN, 3000)
    s = story(s, ANN, "sport", "!!!")
    s, ev = act(s, {"type": "drop_out", "player": ANN})
    assert {"type": "went_to_press", "player": BOB, "how": "last_paper", "bonus": False} in ev
    assert cash(s)[BOB] == 3000 and game.view(s)["winner_names"] == ["Bob"]
    assert game.view(s)["press"]["bonus"] is False       # the panel says the game ended, not "went to press"
    assert "with no bonus" in game.describe(s, {"type": "drop_out", "player": ANN}, ev)
    opt = next(o for o in game.options if o["name"] == "last_paper")
    assert opt["newsdesk"] and opt["default"] == "bonus"


def test_a_page_filled_as_the_last_rival_drops_out_goes_to_press_full_with_the_bonus():
    """'the game is ended when any one player has completely filled his newspaper page ... This
    player announces that he has "Gone to Press."' and 'Whenever a player has "Gone to Press" by
    one of the two methods described above, he receives a bonus of $1,500'. A page filled on the
    turn the last rival dropped out was ended as the last paper left, and with last_paper=no_bonus
    without the bonus the rules give a full page."""
    s = start(names=("Ann", "Bob"), page=SMALL_PAGE, short_of_cash="bankruptcy", last_paper="no_bonus")
    s = story(s, ANN, "sport", "THREE STARS", value=1000, slot="three_star")
    for value in (400, 350):
        s = story(exchange(s, BOB), ANN, "star", "OK", value=value)
    s, _ = act(exchange(s, BOB), {"type": "advertise", "player": ANN, "value": 250})
    s = spend(exchange(s, BOB), BOB, 3000)
    s = story(s, ANN, "sport", "SYND")                                  # Bob can't pay the $500
    s, _ = act(s, {"type": "drop_out", "player": BOB})
    s, ev = act(s, {"type": "place", "player": ANN, "value": 300})      # the page's last space
    assert {"type": "went_to_press", "player": ANN, "how": "full_page"} in ev
    assert cash(s)[ANN] == 3000 + 1500
    assert "page is full: it goes to press with the $1,500 bonus" in game.describe(
        s, {"type": "place", "player": ANN, "value": 300}, ev)


def test_a_player_who_drops_out_leaves_no_cards_in_reserve():
    """"His cards are removed from his newspaper": the reserve is part of the page."""
    s = start()
    s, _ = act(s, {"type": "reserve", "player": ANN, "cards": 2})
    s = exchange(exchange(s, BOB), CAT)
    s = spend(s, ANN, 2700)
    s = story(s, ANN, "sport", "X")
    s, _ = act(s, {"type": "drop_out", "player": ANN})
    assert s["players"][ANN]["out"] and s["players"][ANN]["reserve"] == [0, 0]


def test_a_second_verdict_on_a_judged_story_says_it_was_judged():
    s = story(start(names=("Ann", "Bob")), ANN, "sport", "OK")
    with pytest.raises(GameError, match=r"the editor has already judged Ann's sport story \(OK\): one verdict a call"):
        game.decide(s, {"type": "verdict", "signal": "X"}, None)


def test_turns_and_who_may_act():
    s = start()
    with pytest.raises(GameError, match="Bob can't exchange a card: it is Ann's turn"):
        game.decide(s, {"type": "exchange", "player": BOB}, None)
    with pytest.raises(GameError, match="Ann can't take a story now: Ann claims a story"):
        game.decide(s, {"type": "place", "player": ANN, "value": 100}, None)
    s, _ = act(s, {"type": "claim", "player": ANN, "story_type": "sport"})
    with pytest.raises(GameError, match="Ann can't exchange a card now: Ann dials the editor"):
        game.decide(s, {"type": "exchange", "player": ANN}, None)


@pytest.mark.parametrize("action,message", [
    ({"type": "fly"}, "SCOOP has no action 'fly'"),
    ({"type": ["claim"]}, "SCOOP has no action"),
    ({}, "SCOOP has no action None"),
    ({"type": "claim"}, "\"player\" is a seat number 0-2, not None"),
    ({"type": "claim", "player": True, "story_type": "sport"}, "seat number"),
    ({"type": "claim", "player": "0", "story_type": "sport"}, "seat number"),
    ({"type": "claim", "player": 0}, "story_type is one of"),
    ({"type": "claim", "player": 0, "story_type": {"a": 1}}, "story_type is one of"),
    ({"type": "claim", "player": 0, "story_type": "sport", "cards_from_hand": 4}, "cards_from_hand"),
    ({"type": "claim", "player": 0, "story_type": "sport", "scooped_from": 0}, "another player's reserve"),
    ({"type": "advertise", "player": 0, "value": -5}, "enter the value printed"),
    ({"type": "advertise", "player": 0, "value": 2.5}, "enter the value printed"),
    ({"type": "advertise", "player": 0, "ad_type": "classified", "value": 100}, "ad_type is one of"),
    ({"type": "reserve", "player": 0, "cards": "2"}, "one or two cards"),
    ({"type": "buy", "player": 1}, "Bob can't buy now"),
    ({"type": "sell", "player": 0, "story": 1}, "Ann can't sell a story or advertisement now"),
])
def test_bad_actions_are_refused_with_a_reason(action, message):
    with pytest.raises(GameError, match=message):
        game.decide(start(), action, None)
    with pytest.raises(GameError, match="an action is a dict"):
        game.decide(start(), ["claim"], None)
    with pytest.raises(GameError, match="set up a game of SCOOP first"):
        game.decide(game.initial(), {"type": "exchange", "player": 0}, None)


@pytest.mark.parametrize("page,message", [
    ({"stories": {}}, "at least one type of story"),
    ({"stories": {"star": 2}}, "“The newspaper page's layout”: Stories need no 'star' entry"),
    ({"stories": {"sport": 0}}, "“The newspaper page's layout”: Stories has “sport 0”, not a type and its number of spaces"),
    ({"stories": {"sport lots": "sport lots"}}, "Stories has “sport lots”, not a type and its number of spaces; list each a "
                                                "type and its number of spaces \\(1-6\\) .* e.g. “sport 2, crime 1”"),
    ({"advertisements": {"want ad": [1]}}, "Advertisements has “want ad \\[1\\]”"),
    ({"stories": {"sport": 2}, "advertisements": {"sport": 1}}, "both a story and an advertisement"),
    ({"columns": 3}, "“The newspaper page's layout” lists Stories and Advertisements, each a type and its number"),
    ("sport", "“The newspaper page's layout” lists Stories and Advertisements"),
])
def test_the_page_layout_option_is_checked(page, message):
    with pytest.raises(GameError, match=message):
        start(page=page)


def test_a_whole_game_from_setup_to_the_winner():
    """Four players: stories passed and refused, EXTRA and SYND, a reserve play, a block, an
    advertisement, and a PRESS that ends the game with money plus story values."""
    s = start(names=("Ann", "Bob", "Cat", "Dan"), dealer=DAN)
    s = story(s, ANN, "sport", "OK", value=500)                          # Ann +500 story
    s, _ = act(s, {"type": "reserve", "player": BOB, "cards": 2})        # Bob -200
    s = story(s, CAT, "crime", "SCRAP IT")                               # Cat -300
    s, _ = act(s, {"type": "advertise", "player": DAN, "value": 300})    # Dan +300 ad
    s = story(s, ANN, "society", "EXTRA", value=400)                     # Ann +600, others -200
    s = story(s, BOB, "crime", "SYND", value=600, cards=2)               # Bob +1500, others -500
    s, _ = act(s, {"type": "claim", "player": CAT, "story_type": "local"})
    s, _ = act(s, {"type": "lines_down", "player": DAN})                 # Dan -300, Cat -300
    s = story(s, DAN, "star", "THREE STARS", value=1500, slot="three_star")
    s = story(s, ANN, "local", "X")                                      # Ann -300
    s = exchange(s, BOB)
    s = story(s, CAT, "sport", "PRESS")
    s, _ = act(s, {"type": "go_to_press", "player": CAT})
    view = game.view(s)
    assert cash(s) == [3000 + 600 - 500 - 300, 3000 - 200 - 200 + 1500, 3000 - 300 - 200 - 500 - 300 + 1500,
                       3000 - 200 - 500 - 300]
    assert [t["total"] for t in view["totals"]] == [2800 + 900, 4100 + 600, 3200, 2000 + 1800]
    assert view["winner_names"] == ["Bob"] and view["money_total"] == 0


# ---------------------------------------------------------------- properties

VALUES = st.sampled_from([100, 200, 300, 400, 500, 800, 1000, 1500])


def _made_of(state, p):
    """The ways the page lets ``p`` make a story or an ad: all three cards from the hand, or the
    rest from one of p's reserve spaces, or (with a SCOOP card) captured from another player's."""
    ways = [{}]
    for q, pl in enumerate(state["players"]):
        if pl["out"]:
            continue
        for space, held in enumerate(rules.reserve_spaces(state, q), start=1):
            for used in range(1, held + 1):
                way = {"cards_from_hand": 3 - used, "space": space}
                if q != p:
                    way["scooped_from"] = q
                ways.append(way)
    return ways


def _fill(state, action, data):
    action = {k: v for k, v in action.items() if k not in ("enter", "choices")}
    if action["type"] in ("advertise", "place"):
        action["value"] = data.draw(VALUES)
    if action["type"] in ("claim", "advertise"):
        action.update(data.draw(st.sampled_from(_made_of(state, action["player"]))))
    return action


def _choose(state, data):
    choices = game.offers(state)
    if not choices:
        return None
    action = data.draw(st.sampled_from(choices))
    if action["type"] == "verdict":                  # the box's verdicts, with the refusals common
        action = dict(action, signal=data.draw(st.sampled_from(list(SIGNALS) + ["X", "SCRAP IT"])))
    return _fill(state, action, data) if "enter" in action or action["type"] == "claim" else action


def _check_money(state):
    view = game.view(state)
    held = state["balances"]
    assert ledger.total(held) == 0 and view["money_total"] == 0
    assert sum(p["cash"] for p in view["players"]) + view["bank"] == 0
    for p in view["players"]:
        assert p["cash"] == held.get(rules.account(p["seat"]), 0)
        assert p["cash"] >= 0, "%s went below zero" % p["name"]


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), n=st.integers(2, 5), short=st.sampled_from(rules.SHORT_OF_CASH))
def test_random_play_with_undo_conserves_money_and_replays(data, n, short):
    """Any run of offered actions, undos and redos: the ledger sums to zero and matches the view,
    nobody's cash goes below zero (a player who can't pay goes through bankruptcy instead), an undo
    gives back exactly the state before, and folding the stored entries gives the same state."""
    walk = Walk(game, game.setup([{"name": "P%d" % i} for i in range(n)],
                                 {"short_of_cash": short, "page": SMALL_PAGE}))
    if data.draw(st.booleans()):         # start some games poor, so bankruptcies happen
        for p in range(n):
            amount = data.draw(st.sampled_from([2500, 2800, 2900]))
            walk.play("spent", [ledger.transfer(rules.account(p), ledger.BANK, amount)])

    def choose(state):
        action = _choose(state, data)
        return None if action is None else (action["type"], game.decide(state, action, None))

    for _ in range(data.draw(st.integers(5, 120))):
        if not walk.step(data.draw(st.integers(0, 9)), choose):
            break
        _check_money(walk.state)
        game.view(walk.state)
    assert walk.refolds()


JUNK = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False)
                    | st.text(max_size=4) | st.sampled_from(["sport", "star", "three_star", "OK", "X"]),
                    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
                    max_leaves=4)
KEYS = ["type", "player", "story_type", "cards_from_hand", "scooped_from", "space", "signal", "digit",
        "value", "slot", "ad_type", "cards", "story"]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(data=st.data(), steps=st.integers(0, 12),
       kind=st.sampled_from(sorted(rules._ACTIONS) + ["nope", None, 3]))
def test_junk_actions_raise_game_error_only(data, steps, kind):
    """Wrong turns, unknown types, bad values, missing fields and wrong types: always a GameError."""
    state = start(names=("Ann", "Bob"), short_of_cash="bankruptcy")
    state = spend(state, ANN, 2800)
    for _ in range(steps):                           # somewhere into a game
        action = _choose(state, data)
        if action is None:
            break
        state, _ = act(state, action)
    junk = {"type": kind}
    for key in data.draw(st.lists(st.sampled_from(KEYS[1:]), max_size=4)):
        junk[key] = data.draw(JUNK)
    try:
        events = game.decide(state, junk, None)
    except GameError:
        return
    for ev in events:                                # whatever was accepted folds cleanly
        state = game.apply(state, ev)
    _check_money(state)


def test_the_reserve_holds_two_cards_on_each_of_two_spaces():
    """'No more than three cards may be held in a player's hand, but he may place two cards on
    each of his two reserve spaces' (four in all); 'Cards placed in reserve cannot be removed
    until they are used as part of a complete story.' A third play of two is refused, with no
    money moved; a story made with reserve cards frees their places."""
    s, _ = act(start(), {"type": "reserve", "player": ANN, "cards": 2})
    s = until(s, ANN)
    s, _ = act(s, {"type": "reserve", "player": ANN, "cards": 2})
    s = until(s, ANN)
    assert game.view(s)["players"][ANN]["reserve"] == 4 and cash(s)[ANN] == 2600
    assert [o for o in game.offers(s) if o["type"] == "reserve"] == []
    for cards in (1, 2):
        with pytest.raises(GameError, match="Ann has 4 cards in reserve; the rules allow two cards on "
                                            "each of the two reserve spaces \\(4 in all\\), so the reserve is full"):
            game.decide(s, {"type": "reserve", "player": ANN, "cards": cards}, None)
    s, _ = act(s, {"type": "claim", "player": ANN, "story_type": "sport", "cards_from_hand": 1, "space": 1})
    s, _ = act(s, {"type": "verdict", "signal": "OK", "digit": 5})
    s, _ = act(s, {"type": "place", "player": ANN, "value": 400})  # two reserve cards and one from the hand
    assert game.view(s)["players"][ANN]["reserve"] == 2
    s = until(s, ANN)
    s, _ = act(s, {"type": "reserve", "player": ANN, "cards": 2})
    assert game.view(s)["players"][ANN]["reserve"] == 4


def test_a_printed_value_past_any_real_card_is_refused_with_a_sentence():
    """A story's 'printed value' is money: newsdesk bounds it (MOST_PRINTED_VALUE), so a typing slip
    (or 1e309, or 4,300 digits) never reaches the money or the store."""
    s, _ = act(start(), {"type": "claim", "player": ANN, "story_type": "sport"})
    s, _ = act(s, {"type": "verdict", "signal": "OK", "digit": 5})
    for bad, said in ((rules.MOST_PRINTED_VALUE + 1, "100001"), (10 ** 5000, "about 50.. digits"),
                      (float("inf"), "inf"), (0, "not 0")):
        with pytest.raises(GameError, match="\\$1-\\$100,000.*%s" % said):
            game.decide(s, {"type": "place", "player": ANN, "value": bad}, None)
    s, _ = act(s, {"type": "place", "player": ANN, "value": rules.MOST_PRINTED_VALUE})
    assert game.view(s)["players"][ANN]["stories_value"] == 100_000


# ---------------------------------------------------------------- SCOOP cards, reserves and ads

def reserved(state, p, cards, space):
    """Player p plays ``cards`` to reserve ``space`` on their turn (the others exchange until then)."""
    return act(until(state, p), {"type": "reserve", "player": p, "cards": cards, "space": space})[0]


def spaces(state, p):
    return game.view(state)["players"][p]["reserve_spaces"]


@pytest.mark.parametrize("signal,paid", [("OK", 0), ("SCRAP IT", 300)])
def test_a_scoop_card_is_not_one_of_the_storys_three_cards(signal, paid):
    """'These cards cannot be used to make up a story, their sole purpose being to capture a card
    or cards from the reserves of other players.' 'He must, however, play the captured cards along
    with the necessary cards from his own hand ... He must also discard the SCOOP Card at the same
    time and then refill his hand so that he holds a total of three cards.' Two story cards from
    Cat's hand and one captured from Bob's reserve make the three; the SCOOP card goes on top, so
    the refill is three cards, and after a refusal Cat 'must pay $100 for each card so drawn'."""
    s = reserved(start(), BOB, 2, 1)
    s = until(s, CAT)
    s, ev = act(s, {"type": "claim", "player": CAT, "story_type": "sport", "cards_from_hand": 2,
                    "scooped_from": BOB})
    assert ev[0]["reserve"] == {"player": BOB, "space": 1, "cards": 1} and ev[0]["refill"] == 3
    assert spaces(s, BOB) == [1, 0]
    s, _ = act(s, {"type": "verdict", "signal": signal, "digit": 5})
    assert cash(s)[CAT] == 3000 - paid


def test_a_scoop_captures_at_least_one_card_and_names_the_hands_share():
    """'capture a card or cards from the reserves of other players': the captured cards and the
    hand's story cards are the three, so with a SCOOP the hand gives one or two of them."""
    s = until(reserved(start(), BOB, 2, 1), CAT)
    for k, said in ((3, "not 3"), (None, "and it is missing")):
        action = {"type": "claim", "player": CAT, "story_type": "sport", "scooped_from": BOB}
        if k is not None:
            action["cards_from_hand"] = k
        with pytest.raises(GameError, match="Cat: with a SCOOP, cards_from_hand is how many of the sport "
                                            "story's three cards come from the hand \\(1 or 2; the SCOOP "
                                            "card is not one of them, and the rest are captured\\), " + said):
            game.decide(s, action, None)


@pytest.mark.parametrize("action,said", [
    ({"cards_from_hand": 1},
     "Ann can't make a sport story with 1 card from the hand: it needs 2 more from one reserve space, "
     "and Ann's reserve holds no cards"),
    ({"cards_from_hand": 2, "scooped_from": BOB},
     "Ann can't SCOOP a sport story from Bob's reserve with 2 cards from the hand: it needs 1 captured "
     "card from one reserve space, and Bob's reserve holds no cards"),
])
def test_a_claim_the_cards_cant_make_is_refused_with_what_the_page_shows(action, said):
    """A story needs 'the three cards indicated on his newspaper page'. One card from the hand and
    an empty reserve, or a SCOOP of an empty reserve, is no story: refused with what the reserve
    holds, and nothing changes."""
    s = start()
    with pytest.raises(GameError, match="^" + said + "$"):
        game.decide(s, dict(action, type="claim", player=ANN, story_type="sport"), None)


def test_a_claim_says_which_reserve_space_and_how_many_cards_it_holds():
    """'he may place two cards on each of his two reserve spaces'; a story's reserve cards come
    from one space ('combined with one or more cards on another player's reserve space'). A space
    holding too few is refused with its count; a claim that could use either space asks which."""
    s = reserved(start(), ANN, 1, 2)
    s = until(s, ANN)
    claim = {"type": "claim", "player": ANN, "story_type": "crime", "cards_from_hand": 1}
    with pytest.raises(GameError, match="^Ann can't make a crime story with 1 card from the hand: it needs "
                                        "2 more from one reserve space, and Ann's reserve holds no cards "
                                        "on space 1 and 1 card on space 2$"):
        game.decide(s, claim, None)
    with pytest.raises(GameError, match="and Ann's reserve space 2 holds 1 card$"):
        game.decide(s, dict(claim, space=2), None)
    s = until(reserved(s, ANN, 1, 1), ANN)         # a card on each space: either makes 2 + 1
    with pytest.raises(GameError, match="^Ann: Ann's reserve holds 1 card on space 1 and 1 card on space 2; "
                                        "say which space the crime story's cards come from"):
        game.decide(s, dict(claim, cards_from_hand=2), None)
    s, _ = act(s, dict(claim, cards_from_hand=2, space=2))
    assert spaces(s, ANN) == [1, 0]


def test_a_story_from_both_own_reserve_spaces_is_refused_as_newsdesks_reading():
    """'he may play them in exactly the same manner as if he held all of the cards in his hand':
    the rules don't say a story can't take its reserve cards from both of the player's own spaces;
    taking them from one (as a SCOOP's come from "another player's reserve space") is newsdesk's
    reading, and a refusal that rests on it says so rather than pass it off as the rules'."""
    s = until(reserved(until(reserved(start(), ANN, 1, 1), ANN), ANN, 1, 2), ANN)
    claim = {"type": "claim", "player": ANN, "story_type": "crime", "cards_from_hand": 1}
    with pytest.raises(GameError, match=r"^Ann can't make a crime story with 1 card from the hand: it needs 2 more "
                                        r"from one reserve space, and Ann's reserve holds 1 card on space 1 and 1 card "
                                        r"on space 2 \(newsdesk's reading: "):
        game.decide(s, claim, None)
    with pytest.raises(GameError, match=r"Ann's reserve space 1 holds 1 card \(newsdesk's reading: a story's "
                                        r"reserve cards come from one space"):
        game.decide(s, dict(claim, space=1), None)
    with pytest.raises(GameError, match=r"Ann's reserve holds no cards$"):         # nothing there: no reading
        game.decide(start(), claim, None)


def test_the_reserve_counts_are_checked_not_clamped():
    """'Cards placed in reserve cannot be removed until they are used as part of a complete
    story': after a story uses Bob's two reserve cards, a second SCOOP of that space finds it
    empty and is refused; the count never goes below what the page holds."""
    s = reserved(start(), BOB, 2, 1)
    s = until(s, CAT)
    s = story_from(s, CAT, {"cards_from_hand": 1, "scooped_from": BOB})
    assert spaces(s, BOB) == [0, 0]
    s = until(s, ANN)
    with pytest.raises(GameError, match="Bob's reserve holds no cards"):
        game.decide(s, {"type": "claim", "player": ANN, "story_type": "sport", "cards_from_hand": 2,
                        "scooped_from": BOB}, None)


def story_from(state, p, cards, signal="OK", value=300):
    state, _ = act(state, dict(cards, type="claim", player=p, story_type="sport"))
    state, _ = act(state, {"type": "verdict", "signal": signal, "digit": 5})
    return act(state, {"type": "place", "player": p, "value": value})[0]


def test_an_advertisement_can_be_built_on_a_reserve_space_or_scooped():
    """'a player may build a set for an advertisement on one reserve space' and 'It is also
    permissible to SCOOP an advertisement in the same manner.' An ad made from Ann's reserve set
    frees its space; a SCOOPed ad captures from Bob's; one the cards can't make is refused; and
    'He is then entitled to take the three top cards from the draw pile without charge.'"""
    s = reserved(start(), ANN, 2, 2)
    s = reserved(s, BOB, 1, 1)
    s = until(s, ANN)
    s, ev = act(s, {"type": "advertise", "player": ANN, "value": 300, "cards_from_hand": 1})
    assert ev[0]["reserve"] == {"player": ANN, "space": 2, "cards": 2}
    assert spaces(s, ANN) == [0, 0] and page_values(s, ANN, "advertisement") == [300]
    s = until(s, CAT)
    with pytest.raises(GameError, match="^Cat can't SCOOP an advertisement from Bob's reserve with 1 card "
                                        "from the hand: it needs 2 captured cards from one reserve space, "
                                        "and Bob's reserve holds 1 card on space 1 and none on space 2$"):
        game.decide(s, {"type": "advertise", "player": CAT, "value": 200, "cards_from_hand": 1,
                        "scooped_from": BOB}, None)
    s, _ = act(s, {"type": "advertise", "player": CAT, "value": 200, "cards_from_hand": 2, "scooped_from": BOB})
    assert spaces(s, BOB) == [0, 0] and page_values(s, CAT, "advertisement") == [200]
    assert cash(s)[CAT] == 3000
    with pytest.raises(GameError, match="Ann can't make an advertisement with 2 cards from the hand"):
        game.decide(until(s, ANN), {"type": "advertise", "player": ANN, "value": 100, "cards_from_hand": 2}, None)


def test_a_reserve_play_names_its_space_and_a_full_space_is_refused():
    """'he may place two cards on each of his two reserve spaces': a play goes on one space
    (the first with room when none is named), and a third card on a space is refused."""
    s = reserved(start(), ANN, 1, 1)
    with pytest.raises(GameError, match="^Ann's reserve space 1 holds 1 card; two cards on a space is the "
                                        "most, so only 1 more can go there$"):
        game.decide(until(s, ANN), {"type": "reserve", "player": ANN, "cards": 2, "space": 1}, None)
    s2, ev = act(until(s, ANN), {"type": "reserve", "player": ANN, "cards": 2})
    assert ev[0]["space"] == 2 and spaces(s2, ANN) == [1, 2]
    s = reserved(s, ANN, 1, 2)
    assert spaces(s, ANN) == [1, 1]
    # two cards may go one on each space ("he may place two cards on each of his two reserve
    # spaces" says nothing of one space a play): offered, and what a play naming no space does
    # when neither space has room for both (it was refused: two turns for one play)
    assert {"type": "reserve", "player": ANN, "cards": 2, "space": "both"} in game.offers(until(s, ANN))
    split, ev = act(until(s, ANN), {"type": "reserve", "player": ANN, "cards": 2})
    assert ev[0]["space"] == "both" and spaces(split, ANN) == [2, 2] and cash(split)[ANN] == cash(s)[ANN] - 200
    assert game.describe(until(s, ANN), {"type": "reserve", "player": ANN, "cards": 2}, ev).startswith(
        "Ann played 2 cards to the reserve, one on each space and paid $200")
    s = reserved(s, ANN, 1, 1)
    assert spaces(s, ANN) == [2, 1]
    with pytest.raises(GameError, match="^Ann has 3 cards in reserve; the rules allow two cards on each of the two "
                                        "reserve spaces \\(4 in all\\), so only 1 more can go there$"):
        game.decide(until(s, ANN), {"type": "reserve", "player": ANN, "cards": 2}, None)
    with pytest.raises(GameError, match="^Ann: one card on each reserve space takes two cards and room on both"):
        game.decide(until(s, ANN), {"type": "reserve", "player": ANN, "cards": 1, "space": "both"}, None)


def test_a_game_stored_before_the_reserve_spaces_folds_as_it_was_counted():
    """Events stored before the spaces were told apart name no space, and a claim's
    cards_from_hand then counted a SCOOP card: they fold as they were counted (the cards
    three less those from the hand came off the reserve, the refill was cards_from_hand)."""
    s = start()
    for ev in ({"type": "reserved", "player": BOB, "cards": 2}, {"type": "reserved", "player": BOB, "cards": 1},
               {"type": "claimed", "player": ANN, "story_type": "sport", "cards_from_hand": 2, "scooped_from": BOB}):
        s = game.apply(s, ev)
    assert spaces(s, BOB) == [1, 1] and s["claim"]["refill"] == 2       # [2, 1], less one off space 1
    s, _ = act(s, {"type": "verdict", "signal": "X", "digit": 5})
    assert cash(s)[ANN] == 2800


def _ways_offered(state):
    """{offer's type and kind: the ways its choices give (None: a one-tap offer, all from the hand)}."""
    out = {}
    for o in game.offers(state):
        if o["type"] in ("claim", "advertise"):
            ways = o.get("choices")
            out[o.get("story_type") or o.get("ad_type")] = (
                None if ways is None else sorted(tuple(sorted(w.items())) for w in ways))
    return out


def _ways_made(state, p):
    return sorted(tuple(sorted(dict({"cards_from_hand": 3}, **w).items())) for w in _made_of(state, p))


def test_the_panel_offers_each_way_the_page_can_make_a_storys_cards():
    """A story's cards come from the hand, from the player's own reserve ('he may play them in
    exactly the same manner as if he held all of the cards in his hand') or, with a SCOOP card,
    from another player's ('combined with one or more cards on another player's reserve
    space'). With no card in any reserve each claim and ad is one tap, all from the hand; once a
    reserve holds cards, every claim and ad offers exactly the ways those cards make, each one
    the rules accept, all from the hand first."""
    s = start()
    assert set(_ways_offered(s).values()) == {None}
    s = reserved(s, ANN, 2, 2)                          # Ann's own set; Bob may SCOOP it
    assert _ways_offered(s)["sport"] == _ways_made(s, BOB)
    assert [o["choices"] for o in game.offers(s) if o.get("story_type") == "crime"] == [[
        {"cards_from_hand": 3}, {"cards_from_hand": 1, "space": 2, "scooped_from": ANN},
        {"cards_from_hand": 2, "space": 2, "scooped_from": ANN}]]
    s = reserved(s, BOB, 1, 1)
    s = until(s, ANN)
    offered = _ways_offered(s)
    assert set(offered) == {"sport", "crime", "society", "local", "star", "advertisement"}
    assert all(ways == _ways_made(s, ANN) for ways in offered.values())
    assert (("cards_from_hand", 1), ("space", 2)) in offered["sport"]                      # her own
    assert (("cards_from_hand", 2), ("scooped_from", BOB), ("space", 1)) in offered["sport"]  # a SCOOP
    for o in game.offers(s):
        for way in o.get("choices", ()):
            action = dict({k: v for k, v in o.items() if k not in ("enter", "choices")}, **way)
            if o["type"] == "advertise":
                action["value"] = 200
            assert game.decide(s, action, None)[0]["cards_from_hand"] == way["cards_from_hand"]
    s = story_from(s, ANN, {"cards_from_hand": 1, "space": 2})   # the reserve sets are used up
    s = story_from(until(s, CAT), CAT, {"cards_from_hand": 2, "space": 1, "scooped_from": BOB})
    assert set(_ways_offered(until(s, ANN)).values()) == {None}


def test_a_dropped_out_players_reserve_is_offered_to_nobody():
    """A SCOOP takes cards 'from another player's reserve space': a player who dropped out has
    none on the table, so only the others' spaces are offered."""
    s = reserved(reserved(start(), ANN, 1, 1), BOB, 2, 1)
    s = game.apply(s, {"type": "dropped_out", "player": BOB})     # test shortcut: Bob's drop-out event
    claims = [o for o in game.offers(until(s, CAT)) if o["type"] == "claim"]
    assert claims and all(o["choices"] == [{"cards_from_hand": 3},
                                           {"cards_from_hand": 2, "space": 1, "scooped_from": ANN}]
                          for o in claims)


def test_a_bought_three_star_story_that_would_displace_star_stories_is_refused_as_newsdesks_reading():
    """The rules let a Three Star story displace Star stories only when the editor gives it
    (THREE STARS); a purchase doing so is refused, and the refusal says whose reading that is."""
    s = start(names=("Ann", "Bob"))
    s = story(s, ANN, "sport", "THREE STARS", 1000, slot="three_star")
    s = story(s, BOB, "sport", "THREE STARS", 800, slot="three_star")
    s = story(s, ANN, "star", "OK", 300)
    s = spend(s, BOB, 3000)
    s = story(s, BOB, "sport", "X")
    s, _ = act(s, {"type": "sell", "player": BOB, "story": 2})
    assert game.offers(s) == [{"type": "pass", "player": ANN}]
    with pytest.raises(GameError, match="Ann has no room for a Three Star story on the page \\(newsdesk's reading"):
        act(s, {"type": "buy", "player": ANN})


def test_a_play_that_buys_cards_without_the_cash_is_refused_as_newsdesks_reading():
    """The rules' bankruptcy comes of a player "unable to purchase enough cards to complete his
    hand"; a reserve play refused for want of cash read as if the rules said so."""
    s = spend(start(names=("Ann", "Bob")), ANN, 2950)                  # Ann holds $50
    assert not [o for o in game.offers(s) if o["type"] == "reserve"]
    with pytest.raises(GameError, match=r"^Ann has \$50 and can't pay \$100 for the cards \(newsdesk's reading: a "
                                        r"play that buys cards needs the cash in hand; the rules' bankruptcy comes "
                                        r"of being unable to complete a hand\)$"):
        game.decide(s, {"type": "reserve", "player": ANN, "cards": 1}, None)


def test_a_scooped_from_that_is_no_seat_names_its_own_field():
    """It said '"player" is a seat number', of a player that was fine."""
    s = start(names=("Ann", "Bob"))
    with pytest.raises(GameError, match=r'^say which player: "scooped_from" is a seat number 0-1, not 7$'):
        game.decide(s, {"type": "claim", "player": ANN, "story_type": "crime", "scooped_from": 7,
                        "cards_from_hand": 2}, None)
