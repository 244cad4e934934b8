"""Regenerate the golden corpus's PDF (docs/light-and-sleep-study-summary.pdf under GOLDEN).

The PDF is written with ``make_pdf`` from ``tests/pdfs.py`` (ASCII text, one ``Tj`` per line,
one string per page). Run from anywhere: ``python scripts/make_golden_pdf.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
GOLDEN = REPO / "src" / "groundkit" / "eval" / "golden"

from pdfs import make_pdf  # noqa: E402

NAME = "light-and-sleep-study-summary.pdf"

PAGES = [
    """Research Summary: Evening Light Exposure and Sleep in Hospital Night-Shift Nurses

Summary prepared by the Wexcombe Centre for Occupational Health, April 2026.
Study: LUMEN-NS, a randomised crossover trial. Principal investigator: Dr. Akosua Mensah.
This summary is written for hospital managers and staff representatives. It does not
replace the full paper, which is under peer review.

1. Why the study was done

Nurses who work rotating night shifts sleep less and report more fatigue than day
workers. One proposed cause is bright light late in the shift, which delays the body
clock and makes daytime sleep after the shift shorter and more broken. Blue-enriched
light suppresses melatonin most strongly, so the study asked a practical question:
does wearing amber-tinted glasses for the last part of a night shift and on the
commute home improve daytime sleep?

2. Who took part

We recruited 84 registered nurses from three hospitals in the Wexcombe health region
between March and October 2025. All worked at least four night shifts a month on
12-hour rotas. People with a diagnosed sleep disorder, those taking sleep medication,
and those who were pregnant were not eligible. 78 nurses completed both study periods;
6 withdrew, 4 of them because of changes to their rota. The average age was 36 years,
and 81 percent of participants were women.

3. What we did

Each nurse took part in two 3-week periods in random order, with a 2-week washout
between them. In the intervention period, nurses wore amber glasses that block about
90 percent of light below 530 nm from 04:00 until they went to bed after the shift.
In the control period they wore clear glasses of the same shape at the same times.
Sleep was measured with a wrist-worn actigraphy device and a daily sleep diary.
Alertness was measured at the start and end of each shift with a 3-minute
psychomotor vigilance test (PVT) on a tablet.""",
    """4. Main results

Daytime sleep after night shifts was longer in the amber-glasses period. The average
total sleep time was 5 hours 52 minutes with amber glasses and 5 hours 21 minutes with
clear glasses, a difference of 31 minutes (95 percent confidence interval 18 to 44
minutes). Sleep efficiency, the share of time in bed spent asleep, rose from 79 percent
to 84 percent. Nurses fell asleep 9 minutes faster on average.

The effect was largest after the third and later consecutive night shifts, and
smallest after a single isolated night shift. Nurses older than 45 gained slightly
less sleep (21 minutes) than younger nurses (35 minutes), although the study was not
designed to test age differences.

Alertness at the end of the shift did not get worse. The number of PVT lapses, where
a reaction took longer than 500 ms, was 4.1 per test with amber glasses and 4.3 with
clear glasses, which is not a meaningful difference. This matters because one worry
was that blocking light in the last hours of the shift would make nurses drowsier at
work.

5. Side effects and acceptability

Twelve nurses (15 percent) reported mild headaches in the first days of wearing amber
glasses; all said the headaches had stopped by the end of the first week. Five nurses
said the tint made it harder to read colour-coded drug labels and monitor alarms. For
this reason the study protocol let nurses take the glasses off during medication
rounds. At the end of the trial, 64 percent of nurses said they would keep wearing
amber glasses if the hospital provided them.

6. Limitations

The study lasted only 6 weeks per nurse, so it cannot say whether the benefit lasts
for months or years. Nurses could tell which glasses they were wearing, so the trial
was not blinded, and sleep diaries may have been influenced by expectations. However,
the actigraphy results, which do not depend on what the nurses believed, showed the
same pattern as the diaries. All three hospitals were in one region with similar
daylight hours, and the results may differ at higher latitudes.""",
    """7. What this means for hospitals

Amber glasses are cheap, at about 18 pounds a pair in the study, and easy to use. The
study team suggests that hospitals with rotating night rotas offer them to night-shift
staff, with three conditions:

- Staff should be free to take the glasses off whenever colour vision matters, such
  as during medication rounds and when reading monitors.
- Glasses should be worn from about 04:00, not from the start of the shift, because
  light earlier in the night helps staff stay alert.
- Glasses should not be worn when driving at night or at dawn, because they reduce
  contrast in low light. Staff who drive home should put them on after arriving.

The team does not recommend changing ward lighting on the strength of this study
alone; a separate trial of dimmable, warm-spectrum ward lighting is planned for 2027.

8. Funding and conflicts of interest

LUMEN-NS was funded by the Wexcombe Health Research Trust (grant WHRT-2024-117). The
glasses were bought at retail price from a supplier that had no role in the study.
None of the investigators reports a conflict of interest.

9. Contact

Questions about the study can be sent to the Wexcombe Centre for Occupational Health,
study coordinator Rhys Kettering. The full data set will be shared on request after
the paper is published, in line with the trial's data-sharing plan.""",
]


def main() -> Path:
    for number, page in enumerate(PAGES, start=1):
        lines = page.split("\n")
        assert len(lines) <= 45, f"page {number} has {len(lines)} lines"
        for line in lines:
            assert len(line) <= 90, f"page {number}: line too long: {line!r}"
    target = GOLDEN / "docs" / NAME
    target.write_bytes(make_pdf(PAGES))
    return target


if __name__ == "__main__":
    sys.stdout.write(f"wrote {main()}\n")
