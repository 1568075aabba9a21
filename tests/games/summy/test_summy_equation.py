"""Equations (rules 6 and 7): every valid and invalid example of the rules file, and more."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.games.summy.equation import (
    EquationError,
    check_equation,
    evaluate,
    format_value,
    is_true_equation,
    parse_equation,
    tokenize,
)

RULES_VALID = [
    "1+2=3",
    "1+2+3=6",
    "8x15=120",
    "70+118:2=129",
    "8-8=0",
    "2+3x4=14",
    "7:2x2=7",
    "1-5+6=2",
    "0x5=0",
    "10:4x2=5",
]

MORE_VALID = [
    "0+0=0",
    "1:3x3=1",  # intermediate fraction
    "1-5x2+9=0",  # intermediate negative
    "100:10:10=1",  # left to right
    "2x3-4:2=4",
    "9-3-3=3",  # left to right, not 9-(3-3)
]


@pytest.mark.parametrize("text", RULES_VALID + MORE_VALID)
def test_valid_equations_pass(text: str) -> None:
    assert is_true_equation(text)
    check_equation(text)


def test_a_long_false_equation_names_its_exact_value() -> None:
    with pytest.raises(EquationError) as caught:
        check_equation("100000000000000000001:2=5")
    assert str(caught.value) == "100000000000000000001:2 is 50000000000000000000.5, not 5"


RULES_INVALID = [
    ("3=1+2", "3=1+2: after the = there must be one number and nothing else"),
    ("12=12", "12=12: before the = there must be two or more numbers with an operator between"),
    ("1+2=03", "03 has a leading zero"),
    ("1++2=3", "1++2=3 has ++: two signs side by side"),
    ("+1+2=3", "+1+2=3 starts with +: it must start with a number"),
    ("1+2=3=3", "1+2=3=3 has 2 = signs: an equation needs exactly one"),
    ("5:0=0", "5:0 divides by zero"),
    ("2+3x4=20", "2+3x4 is 14, not 20"),
    ("7:2=3", "7:2 is 3.5, not 3"),
    ("1-5=0", "1-5 is -4, not 0"),
]

MORE_INVALID = [
    ("07+1=8", "07 has a leading zero"),
    ("1+2=", "1+2= ends with =: it must end with a number"),
    ("1+2=3+", "1+2=3+ ends with +: it must end with a number"),
    ("=1+2", "=1+2 starts with =: it must start with a number"),
    ("1+2", "1+2 has no =: an equation needs exactly one ="),
    ("1+=3", "1+=3 has +=: two signs side by side"),
    ("1=-3", "1=-3 has =-: two signs side by side"),
    ("1:3=0", "1:3 is 1/3, not 0"),
    ("2+6:0x3=2", "6:0 divides by zero"),
    ("2+6x2:0=2", "6x2:0 divides by zero"),
    ("1+a=2", "'a' is not a Summy tile"),
    ("", "an equation needs tiles"),
]


@pytest.mark.parametrize(("text", "message"), RULES_INVALID + MORE_INVALID)
def test_invalid_equations_say_why(text: str, message: str) -> None:
    assert not is_true_equation(text)
    with pytest.raises(EquationError) as caught:
        check_equation(text)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("70+118:2=129", ["70", "+", "118", ":", "2", "=", "129"]),
        ("1x0=0", ["1", "x", "0", "=", "0"]),
        ("=", ["="]),
    ],
)
def test_tokenize_groups_digits(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_parse_splits_numbers_operators_and_result() -> None:
    parsed = parse_equation("10:4x2=5")
    assert parsed.numbers == (10, 4, 2)
    assert parsed.operators == (":", "x")
    assert parsed.result == 5
    assert parsed.left_text() == "10:4x2"
    assert parsed.value() == 5


def test_parse_does_not_check_truth() -> None:
    assert parse_equation("2+3x4=20").value() == 14


@pytest.mark.parametrize(
    ("numbers", "operators", "value"),
    [
        ((2, 3, 4), ("+", "x"), Fraction(14)),
        ((7, 2), (":",), Fraction(7, 2)),
        ((1, 5), ("-",), Fraction(-4)),
        ((8, 2, 2), (":", ":"), Fraction(2)),
        ((8, 2, 2), ("-", "-"), Fraction(4)),
        ((3, 0), (":",), None),
    ],
)
def test_evaluate(numbers: tuple[int, ...], operators: tuple[str, ...], value: Fraction) -> None:
    assert evaluate(numbers, operators) == value


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(14), "14"),
        (Fraction(-4), "-4"),
        (Fraction(7, 2), "3.5"),
        (Fraction(1, 8), "0.125"),
        (Fraction(2, 3), "2/3"),
        (Fraction(-7, 20), "-0.35"),
        (Fraction(10**20 + 1, 2), "50000000000000000000.5"),  # exact, not rounded by a float
        (Fraction(-(10**17) - 1, 10**17), "-1.00000000000000001"),
    ],
)
def test_format_value(value: Fraction, text: str) -> None:
    assert format_value(value) == text


PYTHON_OPERATOR = {"+": "+", "-": "-", "x": "*", ":": "/", "": ""}
Expression = tuple[tuple[int, ...], tuple[str, ...]]


@st.composite
def expressions(draw: st.DrawFn) -> Expression:
    """Numbers 0..120 (zeros included, to divide by) with an operator between each two."""
    numbers = draw(st.lists(st.integers(0, 120), min_size=2, max_size=7))
    operators = draw(
        st.lists(st.sampled_from("+-x:"), min_size=len(numbers) - 1, max_size=len(numbers) - 1)
    )
    return tuple(numbers), tuple(operators)


@given(expressions())
def test_evaluate_agrees_with_python_precedence(case: Expression) -> None:
    # an independent oracle: Python's own * / before + -, left to right, over Fractions;
    # the engine never uses eval, the test may
    numbers, operators = case
    python = "".join(
        f"Fraction({n}){PYTHON_OPERATOR[op]}"
        for n, op in zip(numbers, [*operators, ""], strict=True)
    )
    try:
        expected: Fraction | None = eval(python, {"Fraction": Fraction})
    except ZeroDivisionError:
        expected = None
    assert evaluate(numbers, operators) == expected
