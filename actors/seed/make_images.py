#!/usr/bin/env python3
"""Draws the demo chain's images: flat SVG illustrations, no text, no external references.

Rerun from anywhere (Python 3, standard library only):

    python3 actors/seed/make_images.py

It (re)writes
  frontend/public/images/products/p-<name>.svg   400x400, one per entry in PRODUCTS below,
                                                 each under 4 KB
  frontend/public/images/store.svg               the storefront shown in store lists
  frontend/public/images/banner-{1,2,3}[-en].svg 750x360 home-page banners (with text, zh and en)

Output is deterministic (topping positions are seeded by the file name), so rerunning
changes nothing unless this script changes. To add a product image: add an entry to
PRODUCTS, rerun, and reference "/images/products/p-<name>.svg" from actors/seed/menu.json.
`cargo test -p actors seed` checks that every image the seed refers to exists.
"""

import math
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "frontend" / "public" / "images"

# ---------------------------------------------------------------- palette
CRUST, CRUST_EDGE = "#E9B46A", "#C98B45"
CHEESE, CHEESE_HI = "#FFD66B", "#FFE9A6"
SAUCE = {"tomato": "#D2462E", "cream": "#F3E3C3", "pepper": "#6B3F2A", "mala": "#B8321E",
         "cranberry": "#B8324A", "truffle": "#EAD9B5"}
RED, PINK, BEEF, GREEN, ONION, MUSH, OLIVE, PINE = (
    "#C0392B", "#F2A7A0", "#6B3E26", "#3E9B3A", "#B57EDC", "#C9A27E", "#2B2B2B", "#F7D154")
CORN, CHICKEN, SHRIMP, SQUID, TOMATO, BASIL = (
    "#F4C430", "#C8792F", "#F08A5D", "#F7F1E3", "#E74C3C", "#2E8B3A")
GOLD, GOLD_DARK, BROWN, CHOC, CREAM, WHITE = (
    "#E7A33E", "#B9742A", "#8B5A2B", "#4A2717", "#FFF6E0", "#FFFFFF")


def f(v):
    """Short number: integers without decimals, otherwise one decimal."""
    v = round(v, 1)
    return str(int(v)) if v == int(v) else str(v)


def svg(body, bg, w=400, h=400, halo=True):
    halo_el = f'<circle cx="{w // 2}" cy="{h // 2}" r="188" fill="#fff" opacity=".35"/>' if halo else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
            f'<rect width="{w}" height="{h}" fill="{bg}"/>{halo_el}{body}</svg>\n')


# ---------------------------------------------------------------- pizza toppings
def piece(kind, x, y, rot):
    """One topping at (x, y); colour and stroke come from the enclosing group."""
    t = f'transform="translate({f(x)} {f(y)}) rotate({rot})"'
    if kind == "pep":
        return f'<circle cx="{f(x)}" cy="{f(y)}" r="15"/>'
    if kind == "tom":
        return f'<circle cx="{f(x)}" cy="{f(y)}" r="17"/>'
    if kind == "moz":
        return f'<circle cx="{f(x)}" cy="{f(y)}" r="16"/>'
    if kind == "dot":
        return f'<circle cx="{f(x)}" cy="{f(y)}" r="7"/>'
    if kind in ("corn", "berry"):
        return f'<circle cx="{f(x)}" cy="{f(y)}" r="{5 if kind == "corn" else 6}"/>'
    if kind == "fleck":
        return f'<circle cx="{f(x)}" cy="{f(y)}" r="3"/>'
    if kind == "chunk":
        return f'<rect x="-11" y="-8" width="22" height="16" rx="4" {t}/>'
    if kind == "strip":
        return f'<rect x="-15" y="-4" width="30" height="8" rx="4" {t}/>'
    if kind == "leaf":
        return f'<ellipse rx="13" ry="6" {t}/>'
    if kind == "blob":
        return f'<ellipse rx="19" ry="14" {t}/>'
    if kind in ("ring", "olive"):
        return f'<circle cx="{f(x)}" cy="{f(y)}" r="{10 if kind == "ring" else 6}"/>'
    if kind == "shrimp":
        return f'<path d="M-11 0a11 11 0 1 1 11 11" {t}/>'
    if kind == "mush":
        return f'<path d="M-12 2a12 11 0 0 1 24 0zM-4 2h8v9h-8z" {t}/>'
    raise ValueError(kind)


STROKED = {"ring": 4, "olive": 5, "shrimp": 8}


def toppings(rng, recipe, cx, cy, radius, a0=0.0, a1=360.0, taken=None):
    """Places each (kind, colour, count) of the recipe inside a circle sector, not overlapping."""
    taken = [] if taken is None else taken
    groups = []
    for kind, colour, count in recipe:
        items = []
        gap = 9 if kind in ("corn", "fleck", "berry", "dot") else 24
        for _ in range(count):
            for _attempt in range(60):
                r = radius * math.sqrt(rng.uniform(0.02, 1.0))
                a = math.radians(rng.uniform(a0 + 4, a1 - 4))
                x, y = cx + r * math.cos(a), cy + r * math.sin(a)
                if all((x - px) ** 2 + (y - py) ** 2 >= (gap + pg) ** 2 / 4 for px, py, pg in taken):
                    break
            taken.append((x, y, gap))
            items.append(piece(kind, x, y, rng.randrange(0, 180, 15)))
        if kind in STROKED:
            attrs = f'fill="none" stroke="{colour}" stroke-width="{STROKED[kind]}" stroke-linecap="round"'
        else:
            attrs = f'fill="{colour}"'
        groups.append(f'<g {attrs}>{"".join(items)}</g>')
    return "".join(groups)


def pizza_body(name, recipes, sauce="tomato", cheese=True, cx=200, cy=200, scale=1.0):
    """A pizza seen from above: crust, sauce, melted cheese, toppings, cut lines.
    `recipes` is one recipe (whole pizza) or 2 or 4 (halves, quarters)."""
    rng = random.Random(name)
    s = [f'<ellipse cx="{cx}" cy="{cy + 12}" rx="168" ry="164" fill="#000" opacity=".12"/>',
         f'<circle cx="{cx}" cy="{cy}" r="160" fill="{CRUST}" stroke="{CRUST_EDGE}" stroke-width="8"/>',
         f'<circle cx="{cx}" cy="{cy}" r="140" fill="{SAUCE[sauce]}"/>']
    if cheese:
        s.append(f'<circle cx="{cx}" cy="{cy}" r="131" fill="{CHEESE}"/>')
        blobs = "".join(
            f'<circle cx="{f(cx + r * math.cos(a))}" cy="{f(cy + r * math.sin(a))}" r="{rng.randint(14, 24)}"/>'
            for a, r in ((rng.uniform(0, 6.28), rng.uniform(20, 100)) for _ in range(7)))
        s.append(f'<g fill="{CHEESE_HI}" opacity=".7">{blobs}</g>')
    n = len(recipes)
    taken = []
    span = 360 / n
    for i, recipe in enumerate(recipes):
        a0 = -90 + i * span if n > 1 else 0
        s.append(toppings(rng, recipe, cx, cy, 112, a0, a0 + span, taken))
    cuts = 4
    lines = "".join(
        f'<path d="M{f(cx + 140 * math.cos(math.radians(a)))} {f(cy + 140 * math.sin(math.radians(a)))}'
        f'L{f(cx - 140 * math.cos(math.radians(a)))} {f(cy - 140 * math.sin(math.radians(a)))}"/>'
        for a in (i * 180 / cuts - 90 for i in range(cuts)))
    width = 3 if n == 1 else 5
    s.append(f'<g stroke="{CRUST_EDGE}" stroke-width="{width}" opacity=".45">{lines}</g>')
    body = "".join(s)
    if scale != 1.0:
        body = f'<g transform="translate({f(cx - cx * scale)} {f(cy - cy * scale)}) scale({scale})">{body}</g>'
    return body


R = {
    "super-supreme": [("pep", RED, 6), ("chunk", PINK, 3), ("dot", BEEF, 5), ("strip", GREEN, 4),
                      ("ring", ONION, 3), ("mush", MUSH, 3), ("olive", OLIVE, 4), ("chunk", PINE, 3)],
    "pepperoni": [("pep", RED, 15), ("fleck", "#8E2A1E", 10)],
    "hawaiian": [("chunk", PINK, 8), ("chunk", PINE, 9)],
    "orleans-chicken": [("chunk", CHICKEN, 9), ("ring", ONION, 3), ("strip", GREEN, 4), ("corn", CORN, 12)],
    "durian": [("blob", "#E9A920", 8), ("blob", "#F3CF5A", 5), ("fleck", "#B07A12", 8)],
    "seafood-supreme": [("shrimp", SHRIMP, 6), ("ring", SQUID, 5), ("strip", TOMATO, 4),
                        ("strip", GREEN, 3), ("ring", ONION, 2)],
    "beef-black-pepper": [("chunk", "#5A3320", 10), ("strip", "#D63A2F", 4), ("ring", ONION, 3),
                          ("fleck", "#222", 14)],
    "margherita": [("tom", TOMATO, 5), ("moz", "#FFFDF5", 6), ("leaf", BASIL, 7)],
    "spicy-chicken": [("chunk", "#B5521B", 8), ("ring", "#3FA34D", 6), ("strip", "#D63A2F", 4),
                      ("fleck", "#8B1A1A", 12)],
    "garden-veggie": [("mush", MUSH, 4), ("strip", GREEN, 4), ("ring", ONION, 3), ("tom", TOMATO, 3),
                      ("corn", CORN, 10), ("olive", OLIVE, 4)],
    "festive-turkey": [("chunk", "#D9A066", 7), ("blob", "#F39C34", 4), ("leaf", "#4C9A2A", 5),
                       ("berry", "#A4133C", 10)],
    "black-truffle": [("mush", "#B38B6D", 7), ("mush", "#8B6B4A", 4), ("fleck", "#2F2419", 16),
                      ("leaf", "#4C9A2A", 3)],
    "crayfish": [("shrimp", "#D9381E", 7), ("corn", CORN, 12), ("strip", GREEN, 4), ("fleck", "#7A1A0E", 8)],
}


def small(recipe, k=0.5):
    """The same toppings at a smaller count, for halves and quarters."""
    return [(kind, colour, max(1, round(n * k))) for kind, colour, n in recipe]


PIZZAS = {
    # name: (background, recipes, sauce, cheese)
    "super-supreme": ("#FDEBD3", [R["super-supreme"]], "tomato", True),
    "pepperoni": ("#FBE3DF", [R["pepperoni"]], "tomato", True),
    "hawaiian": ("#FFF4CC", [R["hawaiian"]], "tomato", True),
    "orleans-chicken": ("#FCE8D2", [R["orleans-chicken"]], "tomato", True),
    "durian": ("#FFF7D6", [R["durian"]], "cream", True),
    "seafood-supreme": ("#DDF0F7", [R["seafood-supreme"]], "tomato", True),
    "beef-black-pepper": ("#EFE4DA", [R["beef-black-pepper"]], "pepper", True),
    "margherita": ("#E5F4E3", [R["margherita"]], "tomato", False),
    "spicy-chicken": ("#FDE0D6", [R["spicy-chicken"]], "mala", True),
    "garden-veggie": ("#E4F5E0", [R["garden-veggie"]], "tomato", True),
    "festive-turkey": ("#F6E1E4", [R["festive-turkey"]], "cranberry", True),
    "black-truffle": ("#ECE6DE", [R["black-truffle"]], "truffle", True),
    "crayfish": ("#FDE4DA", [R["crayfish"]], "mala", True),
    "quattro": ("#F3E8FA", [small(R["super-supreme"], .3), small(R["pepperoni"], .3),
                            small(R["hawaiian"], .3), small(R["seafood-supreme"], .35)], "tomato", True),
    "half-classic": ("#FFF0DC", [small(R["pepperoni"]), small(R["hawaiian"])], "tomato", True),
    "half-premium": ("#FBEAD8", [small(R["super-supreme"]), small(R["durian"], .6)], "tomato", True),
}


# ---------------------------------------------------------------- other components
def g(x, y, body, s=1.0):
    sc = f" scale({s})" if s != 1.0 else ""
    return f'<g transform="translate({f(x)} {f(y)}){sc}">{body}</g>'


def shadow(cx, cy, rx, ry=None):
    return f'<ellipse cx="{f(cx)}" cy="{f(cy)}" rx="{rx}" ry="{ry or rx // 5}" fill="#000" opacity=".12"/>'


def plate(rx=150, ry=None, fill=WHITE):
    ry = ry or rx
    return (f'<ellipse cx="0" cy="8" rx="{rx}" ry="{ry}" fill="#000" opacity=".1"/>'
            f'<ellipse rx="{rx}" ry="{ry}" fill="{fill}"/><ellipse rx="{rx - 22}" ry="{ry - 22}" fill="#F4F1EC"/>')


def cup(band, lid="#F5F5F5", straw="#E74C3C", body=WHITE):
    """A takeaway drink cup, origin at its centre, about 100x170."""
    return (f'<path d="M-42-60h84l-10 135h-64z" fill="{body}" stroke="#E2E2E2" stroke-width="3"/>'
            f'<path d="M-39-20h78l-5 55h-68z" fill="{band}"/>'
            f'<circle cx="0" cy="8" r="13" fill="#fff" opacity=".85"/>'
            f'<path d="M6-64l18-48h14" fill="none" stroke="{straw}" stroke-width="7" stroke-linecap="round"/>'
            f'<rect x="-49" y="-72" width="98" height="16" rx="6" fill="{lid}"/>')


def glass(juice, garnish, pulp=None):
    """A clear glass of juice with a fruit slice on the rim."""
    dots = ""
    if pulp:
        dots = f'<g fill="{pulp}" opacity=".5">' + "".join(
            f'<circle cx="{x}" cy="{y}" r="3"/>' for x, y in ((-18, 10), (12, 30), (-4, 50), (20, -2), (-22, 40))) + "</g>"
    return (f'<path d="M-48-80h96l-12 160h-72z" fill="#EAF6FB" stroke="#C8DDE6" stroke-width="4"/>'
            f'<path d="M-44-48h88l-9 124h-70z" fill="{juice}"/>{dots}'
            f'<path d="M-30-40l-4 100" stroke="#fff" stroke-width="6" opacity=".5" stroke-linecap="round"/>'
            f'<path d="M10-80l22-60" stroke="#4CAF50" stroke-width="6" stroke-linecap="round"/>'
            f'<circle cx="44" cy="-78" r="28" fill="{garnish}"/><circle cx="44" cy="-78" r="21" fill="#fff" opacity=".45"/>'
            f'<path d="M44-99v42M23-78h42M29-93l30 30M59-93l-30 30" stroke="{garnish}" stroke-width="2"/>')


def boat(colour="#D63A2F"):
    """A paper serving boat, origin at the rim centre, about 220 wide."""
    return (f'<path d="M-110 0h220l-25 70h-170z" fill="{colour}"/>'
            f'<path d="M-110 0h220l-4 12h-212z" fill="#000" opacity=".12"/>'
            f'<g fill="#fff" opacity=".9"><rect x="-60" y="22" width="18" height="40" rx="3"/>'
            f'<rect x="-9" y="22" width="18" height="40" rx="3"/><rect x="42" y="22" width="18" height="40" rx="3"/></g>')


def wing(colour, x, y, rot, glaze=None):
    hi = f'<ellipse cx="-6" cy="-6" rx="12" ry="6" fill="{glaze}" opacity=".55"/>' if glaze else ""
    return (f'<g transform="translate({x} {y}) rotate({rot})">'
            f'<ellipse rx="34" ry="22" fill="{colour}"/>{hi}'
            f'<rect x="26" y="-7" width="22" height="14" rx="7" fill="#F3E6D0"/></g>')


def box(top="#D63A2F", side="#B02A20", emblem=True):
    """A closed pizza box seen from the front and above, origin at the lid centre."""
    e = ""
    if emblem:
        e = (f'<ellipse cx="0" cy="-2" rx="46" ry="22" fill="#fff"/><ellipse cx="0" cy="-2" rx="36" ry="16" fill="{CHEESE}"/>'
             f'<g fill="{RED}"><circle cx="-14" cy="-4" r="5"/><circle cx="10" cy="-8" r="5"/><circle cx="6" cy="6" r="5"/></g>')
    return (f'<path d="M-110-40h220l30 60h-280z" fill="{top}"/>'
            f'<path d="M-140 20h280v34h-280z" fill="{side}"/>'
            f'<path d="M-140 20h280" stroke="#fff" stroke-width="3" opacity=".5"/>{e}')


def tart(x, y, r=48):
    pts = " ".join(f"{f(x + (r if i % 2 else r - 6) * math.cos(i * math.pi / 12))},"
                   f"{f(y + (r if i % 2 else r - 6) * math.sin(i * math.pi / 12))}" for i in range(24))
    return (f'<polygon points="{pts}" fill="{GOLD}"/><circle cx="{x}" cy="{y}" r="{r - 12}" fill="#FFD04D"/>'
            f'<g fill="#8A4B14" opacity=".75"><circle cx="{x - 10}" cy="{y - 8}" r="8"/><circle cx="{x + 12}" cy="{y + 6}" r="6"/>'
            f'<circle cx="{x + 4}" cy="{y - 16}" r="4"/><circle cx="{x - 14}" cy="{y + 14}" r="5"/></g>')


def noodles(colour, cx=0, cy=0, n=9, rng=None):
    rng = rng or random.Random(colour)
    arcs = "".join(
        f'<path d="M{cx + rng.randint(-80, 30)} {cy + rng.randint(-50, 40)}q{rng.randint(20, 60)} {rng.randint(-50, 50)} '
        f'{rng.randint(60, 110)} {rng.randint(-10, 10)}"/>' for _ in range(n))
    return (f'<ellipse cx="{cx}" cy="{cy}" rx="100" ry="74" fill="{colour}"/>'
            f'<g fill="none" stroke="#E8B947" stroke-width="7" stroke-linecap="round">{arcs}</g>')


def baked_dish(top_items):
    return (f'<ellipse cx="0" cy="14" rx="150" ry="108" fill="#000" opacity=".12"/>'
            f'<ellipse rx="150" ry="105" fill="#7A3E1D"/><ellipse rx="128" ry="86" fill="#F6C453"/>'
            f'<g fill="#D98E2B" opacity=".8"><ellipse cx="-60" cy="-20" rx="22" ry="12"/><ellipse cx="40" cy="30" rx="26" ry="14"/>'
            f'<ellipse cx="70" cy="-34" rx="16" ry="9"/><ellipse cx="-20" cy="44" rx="14" ry="8"/></g>{top_items}')


def cake_icon(x, y):
    return (f'<g transform="translate({x} {y})"><rect x="-50" y="-10" width="100" height="50" rx="8" fill="#F7B6C8"/>'
            f'<rect x="-40" y="-42" width="80" height="34" rx="8" fill="#FCE1E8"/>'
            f'<path d="M-50 8q12 12 25 0t25 0 25 0 25 0" fill="none" stroke="#fff" stroke-width="6"/>'
            f'<rect x="-3" y="-66" width="6" height="24" fill="#7FB3D5"/><ellipse cx="0" cy="-74" rx="6" ry="9" fill="#F5B041"/></g>')


def ticket(colour, icon):
    return (shadow(200, 300, 150, 16) +
            f'<path d="M70 120h260a14 14 0 0 0 14 14v46a20 20 0 0 0 0 40v46a14 14 0 0 0-14 14h-260a14 14 0 0 0-14-14v-46'
            f'a20 20 0 0 0 0-40v-46a14 14 0 0 0 14-14z" fill="{colour}"/>'
            f'<path d="M260 140v140" stroke="#fff" stroke-width="4" stroke-dasharray="10 8" opacity=".8"/>'
            f'<g fill="#fff" opacity=".85"><circle cx="295" cy="180" r="10"/><circle cx="295" cy="220" r="10"/>'
            f'<circle cx="295" cy="260" r="6"/></g>{icon}')


def coffee_cup(sleeve="#8B5A2B", lid="#4A3B32"):
    return (f'<path d="M-50-60h100l-14 150h-72z" fill="#fff" stroke="#E2E2E2" stroke-width="3"/>'
            f'<path d="M-46-12h92l-6 60h-80z" fill="{sleeve}"/>'
            f'<circle cx="0" cy="18" r="12" fill="#fff" opacity=".8"/>'
            f'<rect x="-58" y="-78" width="116" height="22" rx="8" fill="{lid}"/><rect x="-40" y="-90" width="80" height="14" rx="6" fill="{lid}"/>')


# ---------------------------------------------------------------- product pictures
def wings(bg, colour, glaze, chilli=False):
    rng = random.Random(bg)
    w = "".join(wing(colour, x, y, r, glaze) for x, y, r in
                ((150, 178, -20), (248, 170, 25), (190, 222, 10), (270, 226, -30), (120, 236, 35)))
    extra = ""
    if chilli:
        extra = '<g fill="#E53935">' + "".join(
            f'<path d="M{x} {y}q10-18 26-8q-12 4-26 8z"/>' for x, y in ((110, 150), (300, 140), (230, 130))) + "</g>"
    extra += '<g fill="#fff" opacity=".7">' + "".join(
        f'<circle cx="{rng.randint(110, 300)}" cy="{rng.randint(150, 250)}" r="2"/>' for _ in range(10)) + "</g>"
    return svg(shadow(200, 330, 130) + g(200, 250, boat()) + w + extra, bg)


def wedges(bg):
    w = "".join(f'<path d="M0 0l70-14q-10 36-70 14z" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width="4" '
                f'transform="translate({x} {y}) rotate({r})"/>' for x, y, r in
                ((120, 200, -40), (170, 170, -70), (215, 180, -100), (250, 200, -130), (140, 230, -20), (230, 228, -150)))
    dip = '<ellipse cx="320" cy="300" rx="40" ry="16" fill="#fff"/><ellipse cx="320" cy="296" rx="32" ry="11" fill="#D63A2F"/>'
    return svg(shadow(200, 330, 130) + w + g(190, 250, boat("#F2B134")) + dip, bg)


def cheese_sticks(bg):
    s = "".join(f'<g transform="translate({x} {y}) rotate({r})"><rect x="-70" y="-16" width="140" height="32" rx="16" fill="{GOLD}"/>'
                f'<rect x="-70" y="-16" width="140" height="32" rx="16" fill="none" stroke="{GOLD_DARK}" stroke-width="3"/>'
                f'<ellipse cx="70" cy="0" rx="10" ry="13" fill="#FFF3C4"/></g>'
                for x, y, r in ((170, 170, -25), (190, 210, -15), (180, 250, -5), (200, 290, 5)))
    pull = '<path d="M262 140q20 10 40 4" stroke="#FFF3C4" stroke-width="6" fill="none" stroke-linecap="round"/>'
    dip = '<ellipse cx="320" cy="300" rx="44" ry="18" fill="#fff"/><ellipse cx="320" cy="296" rx="35" ry="12" fill="#C0392B"/>'
    return svg(g(200, 230, plate(170, 120)) + s + pull + dip, bg)


def nuggets(bg):
    n = "".join(f'<path d="M{x} {y}q-30-4-28-26q4-24 34-22q30 0 30 24q-4 26-36 24z" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width="3"/>'
                for x, y in ((150, 210), (205, 200), (260, 215), (175, 250), (235, 252), (205, 168)))
    dip = '<ellipse cx="320" cy="300" rx="42" ry="17" fill="#fff"/><ellipse cx="320" cy="296" rx="33" ry="12" fill="#E8B923"/>'
    return svg(shadow(200, 330, 130) + g(200, 250, boat()) + n + dip, bg)


def garlic_bread(bg):
    rng = random.Random(bg)
    slices = ""
    for x, y, r in ((140, 200, -12), (200, 190, 0), (260, 200, 12)):
        herbs = "".join(f'<circle cx="{rng.randint(-30, 30)}" cy="{rng.randint(-50, 30)}" r="3"/>' for _ in range(7))
        slices += (f'<g transform="translate({x} {y}) rotate({r})"><path d="M-42 60v-90q0-36 42-36t42 36v90z" fill="#D9A05B"/>'
                   f'<path d="M-34 52v-80q0-28 34-28t34 28v80z" fill="#FBE3A8"/><g fill="{GREEN}">{herbs}</g></g>')
    return svg(g(200, 240, plate(170, 110)) + slices, bg)


def salad(bg):
    rng = random.Random(bg)
    leaves = "".join(f'<circle cx="{rng.randint(-90, 90)}" cy="{rng.randint(-40, 20)}" r="{rng.randint(22, 32)}"/>' for _ in range(12))
    toms = "".join(f'<circle cx="{x}" cy="{y}" r="14"/>' for x, y in ((-50, -20), (40, -30), (10, 10), (70, 0)))
    cuc = "".join(f'<circle cx="{x}" cy="{y}" r="13" fill="#B7E07A" stroke="#4C8A2A" stroke-width="4"/>' for x, y in ((-80, 0), (-10, -40), (60, 20)))
    corn = "".join(f'<circle cx="{rng.randint(-80, 80)}" cy="{rng.randint(-40, 20)}" r="5"/>' for _ in range(10))
    bowl = '<path d="M-140-10h280q-10 120-140 120t-140-120z" fill="#fff" stroke="#E0E0E0" stroke-width="4"/>'
    light = "".join(f'<circle cx="{rng.randint(-80, 80)}" cy="{rng.randint(-40, 10)}" r="{rng.randint(14, 22)}"/>' for _ in range(6))
    body = (f'<g transform="translate(0 -28)"><g fill="#6FBF4A">{leaves}</g><g fill="#9BDB6A">{light}</g>'
            f'<g fill="{TOMATO}">{toms}</g>{cuc}<g fill="{CORN}">{corn}</g></g>{bowl}')
    return svg(shadow(200, 330, 130) + g(200, 210, body), bg)


def popcorn(bg):
    rng = random.Random(bg)
    bits = "".join(f'<circle cx="{rng.randint(-70, 70)}" cy="{rng.randint(-60, 0)}" r="{rng.randint(13, 18)}"/>' for _ in range(16))
    c = (f'<g fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width="3">{bits}</g>'
         f'<path d="M-80-10h160l-20 150h-120z" fill="#D63A2F"/>'
         f'<g fill="#fff"><rect x="-50" y="10" width="16" height="110"/><rect x="-8" y="10" width="16" height="110"/>'
         f'<rect x="34" y="10" width="16" height="110"/></g>')
    return svg(shadow(200, 345, 100) + g(200, 200, c), bg)


def bucket(bg):
    sticks = "".join(wing("#C8692A", x, y, r, "#E9A15B") for x, y, r in
                     ((-60, -40, -60), (0, -60, -90), (60, -40, -120), (-30, -20, -80), (30, -22, -100)))
    fries = "".join(f'<rect x="{x}" y="-70" width="12" height="60" rx="3" fill="{CORN}" transform="rotate({r})"/>'
                    for x, r in ((-90, -10), (70, 10), (-100, -20)))
    b = (f'{fries}{sticks}<path d="M-110-10h220l-24 170h-172z" fill="#fff"/>'
         f'<g fill="#D63A2F"><path d="M-110-10h40l-8 170h-24z"/><path d="M-20-10h40l-4 170h-32z"/>'
         f'<path d="M70-10h40l-24 170h-24z"/></g><rect x="-118" y="-20" width="236" height="18" rx="6" fill="#B02A20"/>')
    return svg(shadow(200, 360, 110) + g(200, 195, b), bg)


def mashed(bg):
    b = (plate(140, 90) + '<ellipse cx="0" cy="6" rx="96" ry="40" fill="#F6DFA0"/>'
         '<path d="M-92 4q6-84 92-84t92 84q-40 26-92 26t-92-26z" fill="#FFD66B"/>'
         '<path d="M-50-40q30-26 70-12" stroke="#FFF0B8" stroke-width="10" fill="none" stroke-linecap="round"/>'
         '<g fill="#C98B2B"><circle cx="-30" cy="-30" r="8"/><circle cx="20" cy="-44" r="6"/><circle cx="44" cy="-16" r="7"/></g>'
         '<g fill="#3E9B3A"><circle cx="-5" cy="-20" r="3"/><circle cx="30" cy="-30" r="3"/><circle cx="-45" cy="-12" r="3"/></g>')
    return svg(g(200, 230, b), bg)


def soup(bg):
    rng = random.Random(bg)
    m = "".join(piece("mush", rng.randint(-70, 70), rng.randint(-45, 40), rng.randrange(0, 180, 15)) for _ in range(6))
    herbs = "".join(f'<circle cx="{rng.randint(-80, 80)}" cy="{rng.randint(-50, 50)}" r="3"/>' for _ in range(10))
    b = (plate(160, 130) + '<ellipse rx="118" ry="92" fill="#fff" stroke="#E3E3E3" stroke-width="4"/>'
         f'<ellipse rx="100" ry="76" fill="#EAD7B7"/><path d="M-40-10q40-30 80 0" stroke="#fff" stroke-width="8" fill="none" opacity=".7"/>'
         f'<g fill="#A47C5B">{m}</g><g fill="{GREEN}">{herbs}</g>')
    return svg(g(200, 210, b), bg)


def pasta(bg, sauce, bits):
    rng = random.Random(bg)
    return svg(g(200, 210, plate(165, 135) + noodles("#F3CD6B", rng=rng) + sauce + bits), bg)


def lasagne(bg):
    layers = "".join(f'<rect x="-110" y="{y}" width="220" height="{h}" fill="{c}"/>' for y, h, c in
                     ((-40, 18, "#F5C35A"), (-22, 14, "#A63A22"), (-8, 10, "#FFF3D6"), (2, 14, "#F1C15E"),
                      (16, 14, "#A63A22"), (30, 10, "#FFF3D6"), (40, 20, "#EDB957")))
    top = ('<path d="M-110-40q30-30 60-14t60-10 60 10 50-6v20h-230z" fill="#F8D06A"/>'
           '<g fill="#C8792F"><circle cx="-60" cy="-44" r="9"/><circle cx="20" cy="-50" r="7"/><circle cx="70" cy="-46" r="8"/></g>'
           f'<g fill="{BASIL}"><ellipse cx="-10" cy="-56" rx="12" ry="6"/><ellipse cx="8" cy="-60" rx="10" ry="5" transform="rotate(30 8 -60)"/></g>')
    return svg(g(200, 220, plate(170, 120) + layers + top), bg)


def baked_rice(bg, items):
    return svg(g(200, 205, baked_dish(items)), bg)


def lava_cake(bg):
    b = (plate(160, 120) + '<path d="M-70 30v-50q0-40 70-40t70 40v50z" fill="#4A2717"/>'
         '<ellipse cx="0" cy="30" rx="70" ry="20" fill="#3A1D10"/>'
         '<path d="M-20-50q20 60 60 80q30 10 60 5q-30 20-80 8q-40-12-40-93z" fill="#6B3420"/>'
         '<g fill="#fff" opacity=".85"><circle cx="-30" cy="-50" r="4"/><circle cx="0" cy="-58" r="3"/><circle cx="25" cy="-48" r="4"/>'
         '<circle cx="-10" cy="-40" r="3"/></g><path d="M-110 40q-10-30 20-34q10 20-20 34z" fill="#E53950"/>'
         f'<ellipse cx="-82" cy="4" rx="10" ry="5" fill="{BASIL}"/>')
    return svg(g(200, 220, b), bg)


def egg_tarts(bg):
    return svg(g(200, 220, plate(170, 120)) + tart(145, 210) + tart(255, 225), bg)


def tiramisu(bg):
    rng = random.Random(bg)
    cocoa = "".join(f'<circle cx="{rng.randint(-70, 70)}" cy="{rng.randint(-66, -46)}" r="2"/>' for _ in range(14))
    b = (plate(160, 110) + '<path d="M-80-50l40-22h120l-40 22z" fill="#6B4226"/>'
         '<path d="M-80-50h120v100h-120z" fill="#F6E7CF"/><path d="M40-50l40-22v100l-40 22z" fill="#E9D4B2"/>'
         '<g fill="#7A4A2A"><rect x="-80" y="-22" width="120" height="16"/><rect x="-80" y="18" width="120" height="16"/></g>'
         f'<g fill="#3A2010" opacity=".6">{cocoa}</g>'
         '<path d="M-80-50h120" stroke="#5A341C" stroke-width="6"/>')
    return svg(g(200, 230, b), bg)


def ice_cream(bg):
    b = ('<path d="M-70 10h140l-20 110h-100z" fill="#7FB3D5"/><path d="M-70 10h140l-4 20h-132z" fill="#5D9BC7"/>'
         '<circle cx="-30" cy="-10" r="44" fill="#FFF4DA"/><circle cx="32" cy="-8" r="42" fill="#FFF0CC"/>'
         '<circle cx="0" cy="-50" r="42" fill="#FFF7E6"/>'
         '<g fill="#5A3A22"><circle cx="-20" cy="-60" r="2"/><circle cx="10" cy="-40" r="2"/><circle cx="-40" cy="-10" r="2"/>'
         '<circle cx="40" cy="-20" r="2"/><circle cx="20" cy="-70" r="2"/></g>'
         '<rect x="26" y="-110" width="16" height="70" rx="4" fill="#E7B463" transform="rotate(20 34 -75)"/>'
         '<path d="M-6-92q6-14 14 0" stroke="#E74C3C" stroke-width="8" fill="none" stroke-linecap="round"/>')
    return svg(shadow(200, 335, 90) + g(200, 210, b), bg)


def pudding(bg):
    cubes = "".join(f'<rect x="{x}" y="{y}" width="20" height="20" rx="4" fill="#F9A825" transform="rotate({r} {x + 10} {y + 10})"/>'
                    for x, y, r in ((-30, -84, 10), (0, -92, -15), (18, -76, 25), (-50, 20, 5), (40, 24, -10)))
    b = (plate(160, 110) + '<path d="M-80 30q0-110 80-110t80 110z" fill="#FFC93C"/>'
         '<ellipse cx="0" cy="30" rx="80" ry="16" fill="#F2B01E"/><path d="M-40-50q10-20 30-24" stroke="#fff" stroke-width="8" '
         'fill="none" opacity=".6" stroke-linecap="round"/>' + cubes +
         f'<g fill="{BASIL}"><ellipse cx="-6" cy="-96" rx="14" ry="6" transform="rotate(-30 -6 -96)"/>'
         '<ellipse cx="10" cy="-98" rx="14" ry="6" transform="rotate(30 10 -98)"/></g>')
    return svg(g(200, 240, b), bg)


def drink(bg, band, straw="#fff"):
    return svg(shadow(200, 345, 80) + g(200, 230, cup(band, straw=straw), 1.25), bg)


def lemon_tea(bg):
    b = glass("#D9892B", "#F4D03F") + '<g fill="#fff" opacity=".7"><rect x="-26" y="-30" width="20" height="20" rx="4"/>' \
        '<rect x="6" y="-20" width="20" height="20" rx="4" transform="rotate(20 16 -10)"/></g>'
    return svg(shadow(200, 340, 80) + g(200, 220, b, 1.15), bg)


def juice(bg, colour, garnish, pulp):
    return svg(shadow(200, 340, 80) + g(200, 220, glass(colour, garnish, pulp), 1.15), bg)


def americano(bg):
    steam = '<g fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" opacity=".8">' \
            '<path d="M-16-110q-12-20 0-40t0-40"/><path d="M16-104q-12-20 0-40"/></g>'
    return svg(shadow(200, 345, 80) + g(200, 225, coffee_cup() + steam, 1.2), bg)


def latte(bg):
    b = ('<path d="M-60-60h120l-12 130h-96z" fill="#EAF6FB" stroke="#C8DDE6" stroke-width="4"/>'
         '<path d="M-57-30h114l-10 100h-94z" fill="#C8A27A"/><path d="M-59-48h118l-2 18h-114z" fill="#FFF6E8"/>'
         '<path d="M-55 10h110l-6 60h-98z" fill="#8B5A2B"/>'
         '<path d="M60-30q40 0 36 40t-42 34" fill="none" stroke="#C8DDE6" stroke-width="10"/>')
    return svg(shadow(200, 335, 90) + g(190, 220, b, 1.25), bg)


def beer(bg):
    b = ('<path d="M-55-90h110l-12 180h-86z" fill="#F5A623"/><path d="M-55-90h110l-2 20h-106z" fill="#E8911A"/>'
         '<path d="M-62-96q10-30 30-24q14-20 34-8q20-16 36 4q22-2 24 28z" fill="#FFFDF5"/>'
         '<g fill="#FFE3A3" opacity=".8"><circle cx="-20" cy="0" r="4"/><circle cx="10" cy="30" r="3"/><circle cx="20" cy="-30" r="4"/>'
         '<circle cx="-10" cy="50" r="3"/></g><path d="M-36-60l-6 130" stroke="#fff" stroke-width="8" opacity=".35"/>')
    return svg(shadow(200, 345, 80) + g(200, 220, b, 1.2), bg)


def combo(bg, items):
    return svg("".join(items), bg)


def gift_cake(bg):
    return svg(ticket("#E8587A", cake_icon(160, 215)), bg, halo=False)


def gift_drink(bg):
    return svg(ticket("#3FA7A0", g(160, 210, cup("#F7D154", straw="#fff"), 0.7)), bg, halo=False)


PIZZA_SMALL = lambda name, x, y, s: pizza_body(name, PIZZAS[name][1], PIZZAS[name][2], PIZZAS[name][3], x, y, s)

PRODUCTS = {
    "wings": lambda: wings("#FDE9D6", "#C8692A", "#F0B26B"),
    "spicy-wings": lambda: wings("#FDE0D6", "#B8421E", "#E5743F", chilli=True),
    "wedges": lambda: wedges("#FFF3D1"),
    "cheese-sticks": lambda: cheese_sticks("#FFF0D0"),
    "nuggets": lambda: nuggets("#FDEBD0"),
    "garlic-bread": lambda: garlic_bread("#F5EEDC"),
    "salad": lambda: salad("#E6F5DC"),
    "popcorn-chicken": lambda: popcorn("#FCE9D2"),
    "mushroom-soup": lambda: soup("#EFE7DB"),
    "party-bucket": lambda: bucket("#FBE2DA"),
    "mashed-potato": lambda: mashed("#F7F0DD"),
    "bolognese": lambda: pasta("#FBE4DC",
                               '<path d="M-50-20q20-40 60-20t40 30q-20 30-60 20t-40-30z" fill="#A63A22"/>',
                               '<g fill="#7A2A16"><circle cx="-20" cy="-10" r="10"/><circle cx="20" cy="0" r="9"/></g>'
                               f'<g fill="#F8F3E6"><circle cx="0" cy="-24" r="4"/><circle cx="-36" cy="4" r="3"/></g>'
                               f'<ellipse cx="30" cy="-30" rx="12" ry="6" fill="{BASIL}"/>'),
    "carbonara": lambda: pasta("#F6F0E0",
                               '<ellipse cx="0" cy="-4" rx="78" ry="50" fill="#FFF3CF" opacity=".8"/>',
                               '<g fill="#D9756A">' + "".join(
                                   f'<rect x="{x}" y="{y}" width="18" height="10" rx="3"/>' for x, y in
                                   ((-50, -20), (-10, -34), (30, -10), (-30, 14), (16, 20))) + '</g>'
                               '<g fill="#2B2B2B"><circle cx="-4" cy="0" r="2"/><circle cx="20" cy="-20" r="2"/><circle cx="-40" cy="0" r="2"/></g>'),
    "beef-rice": lambda: baked_rice("#EFE4DA", '<g fill="#5A3320">' + "".join(
        f'<rect x="{x}" y="{y}" width="24" height="16" rx="5" transform="rotate({r} {x} {y})"/>' for x, y, r in
        ((-80, -10, 20), (-30, -50, -10), (20, 0, 30), (60, 20, -20), (-10, 30, 10), (50, -50, 15))) +
        f'</g><g fill="{GREEN}"><circle cx="-50" cy="30" r="5"/><circle cx="80" cy="-10" r="5"/><circle cx="0" cy="-20" r="5"/></g>'),
    "seafood-rice": lambda: baked_rice("#DDF0F7", f'<g fill="none" stroke="{SHRIMP}" stroke-width="9" stroke-linecap="round">' + "".join(
        piece("shrimp", x, y, r) for x, y, r in ((-70, -10, 30), (0, -40, 90), (60, 10, 150), (-20, 30, 0))) +
        f'</g><g fill="none" stroke="{SQUID}" stroke-width="6">' + "".join(
        f'<circle cx="{x}" cy="{y}" r="11"/>' for x, y in ((-40, -40), (40, -30), (20, 40), (-80, 30))) + '</g>'),
    "lasagne": lambda: lasagne("#FBE6DA"),
    "cola": lambda: drink("#FBE0DE", "#C62828"),
    "sprite": lambda: drink("#E2F5E4", "#2E9E50"),
    "lemon-tea": lambda: lemon_tea("#FFF3D6"),
    "americano": lambda: americano("#EFE5DA"),
    "latte": lambda: latte("#F4EBDD"),
    "craft-beer": lambda: beer("#FFF0D0"),
    "orange-juice": lambda: juice("#FFEBD1", "#FF9F1C", "#FF8C00", "#FFD08A"),
    "mango-juice": lambda: juice("#FFF4CC", "#FFC125", "#F4A300", "#FFE08A"),
    "grapefruit-juice": lambda: juice("#FDE3E3", "#F0766A", "#E8505B", "#FFB3AB"),
    "carrot-juice": lambda: juice("#FFE8D6", "#F57C20", "#FF9F1C", "#FFC48A"),
    "lava-cake": lambda: lava_cake("#F3E6DE"),
    "egg-tarts": lambda: egg_tarts("#FFF4DA"),
    "tiramisu": lambda: tiramisu("#F2EADF"),
    "ice-cream": lambda: ice_cream("#E3F1FA"),
    "mango-pudding": lambda: pudding("#FFF6D5"),
    "gift-cake": lambda: gift_cake("#FDE7EC"),
    "gift-drink": lambda: gift_drink("#E0F4F1"),
    "combo-two": lambda: combo("#FDE3D8", [shadow(200, 330, 160), g(170, 200, box()), g(300, 250, cup("#C62828"), .8),
                                            g(340, 270, cup("#2E9E50"), .7), g(110, 300, wing("#C8692A", 0, 0, -10, "#F0B26B"))]),
    "combo-family": lambda: combo("#FFE9D0", [shadow(200, 340, 170), g(160, 230, box()), g(160, 170, box("#E8503F", "#C0392B"), .9),
                                               g(300, 260, cup("#C62828"), .75), g(345, 280, cup("#2E9E50"), .65),
                                               g(90, 310, wing("#C8692A", 0, 0, -15, "#F0B26B")), g(250, 320, wing("#C8692A", 0, 0, 20, "#F0B26B"))]),
    "combo-solo": lambda: combo("#E8F1FB", [shadow(200, 330, 150), g(170, 230, box("#F28C28", "#D9731A"), .85),
                                             g(305, 240, cup("#C62828"), .85)]),
    "combo-lunch": lambda: combo("#EAF5E1", [g(165, 230, plate(120, 95) + noodles("#F3CD6B", rng=random.Random("lunch"))
                                                   + '<path d="M-40-16q20-34 50-16t30 24q-16 24-50 16t-30-24z" fill="#A63A22"/>', .9),
                                              g(315, 235, cup("#C62828"), .85)]),
    "combo-tea": lambda: combo("#F6EEE4", [g(150, 250, plate(120, 80)), tart(120, 240, 40), tart(190, 252, 40),
                                            g(300, 220, coffee_cup(), .95)]),
}
for _name, (_bg, _recipes, _sauce, _cheese) in PIZZAS.items():
    PRODUCTS[_name] = (lambda n, b, r, s, c: lambda: svg(pizza_body(n, r, s, c), b))(_name, _bg, _recipes, _sauce, _cheese)


# ---------------------------------------------------------------- store and banners
def store_svg():
    awning = "".join(f'<path d="M{60 + i * 35} 150h35v34q-17 14-35 0z" fill="{"#D63A2F" if i % 2 == 0 else "#fff"}"/>' for i in range(8))
    windows = ('<rect x="72" y="200" width="100" height="90" rx="6" fill="#BFE3F2"/><rect x="228" y="200" width="100" height="90" rx="6" fill="#BFE3F2"/>'
               '<path d="M80 280l40-70M140 280l24-40M236 280l40-70M296 280l24-40" stroke="#fff" stroke-width="6" opacity=".6"/>')
    door = '<rect x="176" y="206" width="48" height="104" rx="4" fill="#7A3E1D"/><circle cx="214" cy="262" r="4" fill="#F7D154"/>'
    sign = ('<rect x="120" y="100" width="160" height="42" rx="21" fill="#fff"/><circle cx="200" cy="121" r="30" fill="#E9B46A" stroke="#fff" stroke-width="6"/>'
            f'<circle cx="200" cy="121" r="22" fill="{CHEESE}"/><g fill="{RED}"><circle cx="192" cy="114" r="5"/>'
            '<circle cx="208" cy="118" r="5"/><circle cx="198" cy="130" r="5"/></g>')
    plants = '<g fill="#4C9A2A"><circle cx="52" cy="300" r="22"/><circle cx="348" cy="300" r="22"/></g>' \
             '<g fill="#A0522D"><rect x="38" y="300" width="28" height="24"/><rect x="334" y="300" width="28" height="24"/></g>'
    body = ('<rect y="320" width="400" height="80" fill="#D9D2C5"/><rect x="40" y="90" width="320" height="232" fill="#F6E7CF"/>'
            '<rect x="30" y="78" width="340" height="24" rx="6" fill="#B02A20"/>' + awning + windows + door + sign + plants +
            '<path d="M40 320h320" stroke="#8B7D6B" stroke-width="4"/>')
    return svg(body, "#E3F1FA", halo=False)


def banner(title, subtitle, bg1, bg2, accent, pizza, extra="", button="立即点餐 ›"):
    font = 'font-family="PingFang SC, Hiragino Sans GB, Microsoft YaHei, Noto Sans CJK SC, sans-serif"'
    defs = (f'<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="{bg1}"/>'
            f'<stop offset="1" stop-color="{bg2}"/></linearGradient></defs>')
    deco = ('<g fill="#fff" opacity=".12"><circle cx="560" cy="180" r="200"/><circle cx="60" cy="330" r="90"/>'
            '<circle cx="380" cy="30" r="40"/></g>')
    text = (f'<text x="48" y="150" {font} font-size="42" font-weight="700" fill="#fff">{title}</text>'
            f'<text x="50" y="200" {font} font-size="24" fill="#fff" opacity=".92">{subtitle}</text>'
            f'<rect x="48" y="236" width="168" height="52" rx="26" fill="{accent}"/>'
            f'<text x="132" y="270" {font} font-size="22" font-weight="700" fill="#fff" text-anchor="middle">{button}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="750" height="360" viewBox="0 0 750 360">{defs}'
            f'<rect width="750" height="360" fill="url(#bg)"/>{deco}{pizza}{extra}{text}</svg>\n')


def scooter():
    """A delivery scooter with a pizza box, speed lines behind it."""
    return ('<g transform="translate(390 262)">'
            '<path d="M-22 52q0-42 44-46h58l26-44h16l-12 46q34 6 40 44z" fill="#F7D154"/>'
            '<path d="M20 6h60l-6 16h-48z" fill="#333" opacity=".25"/>'
            '<rect x="-40" y="-44" width="76" height="50" rx="6" fill="#D63A2F"/>'
            '<rect x="-40" y="-24" width="76" height="8" fill="#fff"/>'
            '<path d="M104-38l10-26h18" stroke="#333" stroke-width="8" fill="none" stroke-linecap="round"/>'
            '<g fill="#333"><circle cx="0" cy="56" r="24"/><circle cx="132" cy="56" r="24"/></g>'
            '<g fill="#ddd"><circle cx="0" cy="56" r="9"/><circle cx="132" cy="56" r="9"/></g></g>'
            '<g stroke="#fff" stroke-width="6" stroke-linecap="round" opacity=".7"><path d="M330 240h-46"/>'
            '<path d="M338 272h-70"/><path d="M330 304h-40"/></g>')


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def main():
    sizes = []
    for name, draw in sorted(PRODUCTS.items()):
        text = draw()
        write(OUT / "products" / f"p-{name}.svg", text)
        sizes.append((len(text.encode()), name))
    write(OUT / "store.svg", store_svg())
    turkey_snow = '<g fill="#fff" opacity=".8">' + "".join(
        f'<circle cx="{x}" cy="{y}" r="{r}"/>' for x, y, r in
        ((420, 40, 4), (470, 90, 3), (700, 40, 5), (720, 300, 3), (440, 320, 4), (300, 60, 3))) + "</g>"
    # Each banner in Chinese (the default) and in English (-en), picked by the app's language.
    banners = [
        (("外送30分钟必达", "Hot &amp; fresh to your door in 30 minutes"), ("30-minute delivery", "Hot &amp; fresh to your door, or it's on us"),
         ("#E8503F", "#B02A20", "#F5A623"), PIZZA_SMALL("pepperoni", 630, 140, .55), scooter()),
        (("双拼比萨 一次尝两种", "Half &amp; Half: two flavours, one pizza"), ("Half &amp; Half", "Two flavours, one pizza"),
         ("#F39C34", "#D9731A", "#C0392B"), PIZZA_SMALL("half-premium", 615, 180, .68), ""),
        (("冬日限定 烤火鸡比萨", "Winter special: Festive Roast Turkey"), ("Winter special", "Festive Roast Turkey pizza"),
         ("#2E7D4F", "#1B5E3A", "#C0392B"), PIZZA_SMALL("festive-turkey", 615, 180, .68), turkey_snow),
    ]
    for i, (zh, en, colours, pizza, extra) in enumerate(banners, start=1):
        write(OUT / f"banner-{i}.svg", banner(*zh, *colours, pizza, extra))
        write(OUT / f"banner-{i}-en.svg", banner(*en, *colours, pizza, extra, button="Order now ›"))
    biggest = max(sizes)
    print(f"wrote {len(sizes)} product images (largest {biggest[1]}: {biggest[0]} bytes), store.svg, 3 banners in zh and en to {OUT}")
    too_big = [f"{n} ({s} bytes)" for s, n in sizes if s > 4096]
    if too_big:
        raise SystemExit("over 4 KB: " + ", ".join(too_big))


if __name__ == "__main__":
    main()
