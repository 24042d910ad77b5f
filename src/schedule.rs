//! Feed schedules: crontab lines with crontab semantics, on top of the
//! `cron` crate.
//!
//! The `cron` crate wants a seconds field, numbers days of the week 1–7 with
//! Sunday = 1, and ANDs day-of-month with day-of-week. Crontab has five
//! fields, numbers days 0–7 with 0 and 7 = Sunday, and fires when either
//! day field matches if both are restricted. So a 5-field line is
//! translated: seconds `0` are prepended, day-of-week numbers become names
//! (`1-5` → `MON-FRI`, `0`/`7` → `SUN`), and a line restricting both day
//! fields becomes two schedules (one per day field) whose union is taken.
//! 6/7-field lines are the `cron` crate's own syntax and pass through;
//! `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly` are expanded.
//!
//! Invariant: a [`Schedule`] holds at least one parsed `cron::Schedule`.

use std::str::FromStr;

use chrono::{DateTime, TimeZone};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("invalid schedule {line:?}: {reason}")]
pub struct ScheduleError {
    pub line: String,
    pub reason: String,
}

/// A parsed schedule: the union of one or two `cron` schedules.
#[derive(Debug, Clone)]
pub struct Schedule {
    /// The line as configured.
    pub source: String,
    crons: Vec<cron::Schedule>,
}

const DAY_NAMES: [&str; 8] = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"];

/// Translate one crontab day-of-week field to `cron` crate names.
fn translate_dow(field: &str) -> Result<String, String> {
    let name = |s: &str| -> Result<String, String> {
        match s.parse::<usize>() {
            Ok(n) if n <= 7 => Ok(DAY_NAMES[n].to_string()),
            Ok(n) => Err(format!("day of week {n} is out of range 0-7")),
            Err(_) => Ok(s.to_ascii_uppercase()),
        }
    };
    field
        .split(',')
        .map(|part| {
            let (range, step) = match part.split_once('/') {
                Some((r, s)) => (r, Some(s)),
                None => (part, None),
            };
            let range = match range.split_once('-') {
                // `5-7` (Fri–Sun) would wrap in names; `5-0` likewise.
                Some((a, b)) => {
                    let (an, bn) = (name(a)?, name(b)?);
                    let idx = |n: &str| DAY_NAMES.iter().position(|d| *d == n);
                    match (idx(&an), idx(&bn)) {
                        (Some(x), Some(0) | Some(7)) if x > 0 && step.is_none() => {
                            // Up to Sunday: split into x..SAT and SUN.
                            if x == 6 {
                                "SAT,SUN".to_string()
                            } else {
                                format!("{an}-SAT,SUN")
                            }
                        }
                        _ => format!("{an}-{bn}"),
                    }
                }
                None => name(range)?,
            };
            Ok(match step {
                Some(s) => format!("{range}/{s}"),
                None => range,
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|v| v.join(","))
}

fn restricted(field: &str) -> bool {
    field != "*" && field != "?"
}

impl FromStr for Schedule {
    type Err = ScheduleError;

    fn from_str(line: &str) -> Result<Self, ScheduleError> {
        let err = |reason: String| ScheduleError {
            line: line.to_string(),
            reason,
        };
        let trimmed = line.trim();
        let expanded = match trimmed {
            "@hourly" => "0 * * * *",
            "@daily" | "@midnight" => "0 0 * * *",
            "@weekly" => "0 0 * * 0",
            "@monthly" => "0 0 1 * *",
            "@yearly" | "@annually" => "0 0 1 1 *",
            other if other.starts_with('@') => return Err(err(format!("unknown macro {other}"))),
            other => other,
        };
        let fields: Vec<&str> = expanded.split_whitespace().collect();
        let lines: Vec<String> = match fields.len() {
            5 => {
                let dow = translate_dow(fields[4]).map_err(err)?;
                let (min, hour, dom, mon) = (fields[0], fields[1], fields[2], fields[3]);
                if restricted(dom) && restricted(fields[4]) {
                    // Crontab fires when either day field matches.
                    vec![
                        format!("0 {min} {hour} {dom} {mon} *"),
                        format!("0 {min} {hour} * {mon} {dow}"),
                    ]
                } else {
                    vec![format!("0 {min} {hour} {dom} {mon} {dow}")]
                }
            }
            6 | 7 => vec![expanded.to_string()],
            n => {
                return Err(err(format!(
                    "expected 5 fields (crontab), or 6-7 with seconds, found {n}"
                )));
            }
        };
        let crons = lines
            .iter()
            .map(|l| cron::Schedule::from_str(l).map_err(|e| err(format!("{e}"))))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Schedule {
            source: trimmed.to_string(),
            crons,
        })
    }
}

impl Schedule {
    /// The first firing time strictly after `after`, in `tz`.
    pub fn next_after<Tz: TimeZone>(&self, after: &DateTime<Tz>) -> Option<DateTime<Tz>> {
        self.crons
            .iter()
            .filter_map(|c| c.after(after).next())
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Datelike, Timelike, Utc};

    fn next(line: &str, from: &str) -> DateTime<Utc> {
        let s: Schedule = line.parse().unwrap();
        let from = DateTime::parse_from_rfc3339(from)
            .unwrap()
            .with_timezone(&Utc);
        s.next_after(&from).unwrap()
    }

    #[test]
    fn crontab_five_fields_fire_on_the_minute() {
        let t = next("*/15 * * * *", "2024-03-05T10:07:30Z");
        assert_eq!((t.hour(), t.minute(), t.second()), (10, 15, 0));
    }

    #[test]
    fn sunday_is_zero_and_seven() {
        // 2024-03-05 is a Tuesday; the next Sunday is the 10th.
        for line in ["0 9 * * 0", "0 9 * * 7", "0 9 * * sun", "@weekly"] {
            let t = next(line, "2024-03-05T10:00:00Z");
            assert_eq!(t.weekday(), chrono::Weekday::Sun, "{line}");
            assert_eq!(t.day(), 10, "{line}");
        }
    }

    #[test]
    fn weekday_range_is_monday_to_friday() {
        // From Friday evening, 1-5 next fires on Monday.
        let t = next("0 8 * * 1-5", "2024-03-08T20:00:00Z");
        assert_eq!((t.weekday(), t.day()), (chrono::Weekday::Mon, 11));
        // 5-7 is Friday to Sunday.
        let t = next("0 8 * * 5-7", "2024-03-09T20:00:00Z");
        assert_eq!(t.weekday(), chrono::Weekday::Sun);
    }

    #[test]
    fn both_day_fields_are_ored_like_crontab() {
        // "On the 13th, or on Fridays": from Tue 2024-03-05, Fri the 8th
        // comes first; the cron crate alone would wait for a Friday 13th.
        let t = next("0 0 13 * 5", "2024-03-05T00:00:00Z");
        assert_eq!(t.day(), 8);
        let t = next("0 0 13 * 5", "2024-03-09T00:00:00Z");
        assert_eq!(t.day(), 13);
    }

    #[test]
    fn seconds_form_passes_through_and_errors_are_clear() {
        let t = next("30 * * * * *", "2024-03-05T10:07:00Z");
        assert_eq!((t.minute(), t.second()), (7, 30));
        let e = "* * *".parse::<Schedule>().unwrap_err();
        assert!(e.reason.contains("expected 5 fields"), "{e}");
        assert!(
            "0 0 * * 9"
                .parse::<Schedule>()
                .unwrap_err()
                .reason
                .contains("out of range")
        );
        assert!("@often".parse::<Schedule>().is_err());
    }
}
