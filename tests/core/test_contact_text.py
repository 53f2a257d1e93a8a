"""Contact details in free text: what reads as a phone number (never a date), and a text with every e-mail address,
phone number and link withheld."""

import pytest

from core.contact_text import is_date, phone_matches, without_contact_details


@pytest.mark.parametrize("text", ["12.03.1990", "1990-03-12", "12/03/2024", "03/12/1990", "12-03-1990"])
def test_a_calendar_date_is_a_date(text):
    assert is_date(text)


@pytest.mark.parametrize("text", ["030 1234 5678", "06.12.34.56.78", "45.67.1990", "+49 30 1234567"])
def test_a_phone_number_is_no_date(text):
    assert not is_date(text)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Geburtsdatum: 12.03.1990", []),
        ("Berlin, 12.03.2024", []),
        ("Date of birth: 1990-03-12", []),
        ("2019 - 2023", []),
        ("Tel. +49 30 1234567 · 12.03.1990", ["+49 30 1234567"]),
    ],
)
def test_phone_matches_leave_dates_and_year_ranges_out(text, found):
    assert [m.group(0).strip() for m in phone_matches(text)] == found


def test_a_text_without_its_contact_details_keeps_the_rest():
    text = (
        "Ilvy Marchetti\nilvy.marchetti@example.net · +39 347 123 4567\nhttps://ilvy.example.net · "
        "github.com/ilvym\nBackend Engineer, 2019 - 2023, born 12.03.1990"
    )

    hidden = without_contact_details(text)

    assert hidden == (
        "Ilvy Marchetti\n[e-mail address withheld] · [phone number withheld]\n[link withheld] · "
        "[link withheld]\nBackend Engineer, 2019 - 2023, born 12.03.1990"
    )
