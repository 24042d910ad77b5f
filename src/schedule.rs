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
//! `every = "30m"` is an interval schedule: each run starts one interval
//! after the previous run started, whatever the clock says.
//!
//! Daylight-saving days follow crontab (Vixie cron) rules, so a job neither
//! skips nor doubles: schedules are evaluated on *local wall-clock* times; a
//! wall time that does not exist (spring forward, 02:30 in a 02:00→03:00
//! gap) fires once at the first instant after the gap; a wall time that
//! exists twice (fall back, 01:30) fires once, at its first occurrence —
//! unless the schedule fires every hour (hour field `*`), in which case
//! each real hour gets its runs, as crontab does for wildcard jobs.
//! [`Schedule::next_after_in`] implements this; prefer it to
//! [`Schedule::next_after`], which is the `cron` crate's raw answer.
//!
//! Invariant: a cron [`Schedule`] holds at least one parsed
//! `cron::Schedule`; an interval is at least one second.

use std::str::FromStr;
use std::time::Duration;

use chrono::{DateTime, LocalResult, NaiveDateTime, TimeZone, Utc};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("invalid schedule {line:?}: {reason}")]
pub struct ScheduleError {
    pub line: String,
    pub reason: String,
}

/// A parsed schedule: the union of one or two `cron` schedules, or a fixed
/// interval.
#[derive(Debug, Clone)]
pub struct Schedule {
    /// The line as configured (`every 30m` for intervals).
    pub source: String,
    crons: Vec<cron::Schedule>,
    /// `Some` for `every = "…"` schedules (then `crons` is empty).
    interval: Option<Duration>,
    /// The hour field is `*`: the job fires every hour, so both copies of a
    /// repeated fall-back hour get their runs.
    every_hour: bool,
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

/// (name, lowest, highest) of each field of a 5-field crontab line.
const CRONTAB_FIELDS: [(&str, u32, u32); 5] = [
    ("minute", 0, 59),
    ("hour", 0, 23),
    ("day of month", 1, 31),
    ("month", 1, 12),
    ("day of week", 0, 7),
];
/// The same for 6- and 7-field lines (seconds first, years last).
const SECONDS_FIELDS: [(&str, u32, u32); 7] = [
    ("second", 0, 59),
    ("minute", 0, 59),
    ("hour", 0, 23),
    ("day of month", 1, 31),
    ("month", 1, 12),
    ("day of week", 1, 7),
    ("year", 1970, 2099),
];

/// Every number in every field within that field's range. The error shows
/// the line as written with a caret under the offending field and names
/// the range ("hour 25 is out of range 0-23").
fn check_ranges(line: &str, fields: &[&str]) -> Result<(), String> {
    let spec: &[(&str, u32, u32)] = match fields.len() {
        5 => &CRONTAB_FIELDS,
        6 | 7 => &SECONDS_FIELDS,
        _ => return Ok(()),
    };
    let mut from = 0;
    for (field, (name, lo, hi)) in fields.iter().zip(spec) {
        let start = line[from..].find(field).map_or(from, |i| from + i);
        from = start + field.len();
        for part in field.split(',') {
            // A step after `/` counts intervals, not positions.
            let range = part.split('/').next().unwrap_or("");
            for bound in range.split('-') {
                let Ok(n) = bound.parse::<u32>() else {
                    continue;
                };
                if n < *lo || n > *hi {
                    let caret = format!("{}{}", " ".repeat(start), "^".repeat(field.len()));
                    return Err(format!(
                        "{name} {n} is out of range {lo}-{hi}\n    {line}\n    {caret}"
                    ));
                }
            }
        }
    }
    Ok(())
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
        check_ranges(expanded, &fields).map_err(err)?;
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
            .map(|l| {
                cron::Schedule::from_str(l).map_err(|e| {
                    // cron's message quotes the line it was given (ours,
                    // rewritten): keep only its reason, under the user's.
                    let text = e.to_string();
                    let reason = text.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("");
                    err(format!("{reason}\n    {trimmed}"))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let hour_field = if fields.len() == 5 {
            fields[1]
        } else {
            fields[2]
        };
        Ok(Schedule {
            source: trimmed.to_string(),
            crons,
            interval: None,
            every_hour: hour_field == "*",
        })
    }
}

impl Schedule {
    /// An interval schedule (`every = "30m"`).
    pub fn every(interval: Duration) -> Result<Schedule, ScheduleError> {
        if interval < Duration::from_secs(1) {
            return Err(ScheduleError {
                line: format!("every {interval:?}"),
                reason: "an interval must be at least one second".into(),
            });
        }
        Ok(Schedule {
            source: format!("every {}", crate::config::format_duration(interval)),
            crons: Vec::new(),
            interval: Some(interval),
            every_hour: false,
        })
    }

    /// The interval of an `every` schedule.
    pub fn interval(&self) -> Option<Duration> {
        self.interval
    }

    /// The next run strictly after `after`, evaluated on wall-clock time in
    /// `tz` with crontab's daylight-saving rules (see the module header).
    /// For an interval schedule it is `after + interval`.
    pub fn next_after_in<Tz: TimeZone>(
        &self,
        tz: &Tz,
        after: DateTime<Utc>,
    ) -> Option<DateTime<Utc>> {
        if let Some(i) = self.interval {
            return Some(after + chrono::Duration::from_std(i).ok()?);
        }
        // Wall times are walked as if they were UTC (no gaps, no repeats)
        // and mapped back to the zone one by one. The walk starts two hours
        // back so that the second copy of a repeated hour is seen again;
        // anything not after `after` is skipped below.
        let mut naive = after.with_timezone(tz).naive_local() - chrono::Duration::hours(2);
        for _ in 0..10_000 {
            let cursor = Utc.from_utc_datetime(&naive);
            let next = self.next_after(&cursor)?.naive_utc();
            naive = next;
            let instant = match tz.from_local_datetime(&next) {
                LocalResult::Single(t) => t.with_timezone(&Utc),
                LocalResult::Ambiguous(first, second) => {
                    let (first, second) = (first.with_timezone(&Utc), second.with_timezone(&Utc));
                    if first > after {
                        first
                    } else if self.every_hour && second > after {
                        second
                    } else {
                        continue;
                    }
                }
                LocalResult::None => match first_instant_after_gap(tz, next) {
                    Some(t) => t,
                    None => continue,
                },
            };
            if instant > after {
                return Some(instant);
            }
        }
        None
    }

    /// The first firing time strictly after `after`, in `tz`.
    pub fn next_after<Tz: TimeZone>(&self, after: &DateTime<Tz>) -> Option<DateTime<Tz>> {
        self.crons
            .iter()
            .filter_map(|c| c.after(after).next())
            .min()
    }
}

/// The first real instant after the wall-clock gap that `naive` falls in.
fn first_instant_after_gap<Tz: TimeZone>(tz: &Tz, naive: NaiveDateTime) -> Option<DateTime<Utc>> {
    use chrono::Timelike;
    // Gaps are at most a few hours and start on a whole minute: walk whole
    // minutes to the first wall time that exists.
    let mut probe = naive.with_second(0)?.with_nanosecond(0)?;
    for _ in 0..(24 * 60) {
        probe += chrono::Duration::minutes(1);
        if let Some(t) = tz.from_local_datetime(&probe).earliest() {
            return Some(t.with_timezone(&Utc));
        }
    }
    None
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

    fn local_runs(line: &str, tz: chrono_tz::Tz, from: &str, n: usize) -> Vec<String> {
        let s: Schedule = line.parse().unwrap();
        let mut t = DateTime::parse_from_rfc3339(from)
            .unwrap()
            .with_timezone(&Utc);
        (0..n)
            .map(|_| {
                t = s.next_after_in(&tz, t).unwrap();
                t.with_timezone(&tz).to_rfc3339()
            })
            .collect()
    }

    #[test]
    fn spring_forward_runs_a_skipped_time_once_right_after_the_gap() {
        // New York, 2024-03-10: 02:00 EST jumps to 03:00 EDT.
        let runs = local_runs(
            "30 2 * * *",
            chrono_tz::America::New_York,
            "2024-03-09T12:00:00Z",
            3,
        );
        assert_eq!(
            runs,
            [
                "2024-03-10T03:00:00-04:00",
                "2024-03-11T02:30:00-04:00",
                "2024-03-12T02:30:00-04:00"
            ]
        );
        // A 15-minute job does not fire four times at 03:00.
        let runs = local_runs(
            "*/15 * * * *",
            chrono_tz::America::New_York,
            "2024-03-10T06:40:00Z", // 01:40 EST
            3,
        );
        assert_eq!(
            runs,
            [
                "2024-03-10T01:45:00-05:00",
                "2024-03-10T03:00:00-04:00",
                "2024-03-10T03:15:00-04:00"
            ]
        );
    }

    #[test]
    fn fall_back_runs_a_repeated_time_once_but_hourly_jobs_every_hour() {
        // New York, 2024-11-03: 02:00 EDT falls back to 01:00 EST.
        let runs = local_runs(
            "30 1 * * *",
            chrono_tz::America::New_York,
            "2024-11-02T12:00:00Z",
            2,
        );
        assert_eq!(
            runs,
            ["2024-11-03T01:30:00-04:00", "2024-11-04T01:30:00-05:00"]
        );
        let runs = local_runs(
            "30 * * * *",
            chrono_tz::America::New_York,
            "2024-11-03T05:00:00Z", // 01:00 EDT
            3,
        );
        assert_eq!(
            runs,
            [
                "2024-11-03T01:30:00-04:00",
                "2024-11-03T01:30:00-05:00",
                "2024-11-03T02:30:00-05:00"
            ]
        );
    }

    #[test]
    fn daily_runs_keep_local_time_across_dst_in_europe() {
        // Berlin 2024-03-31 (02:00→03:00) and 2024-10-27 (03:00→02:00).
        let runs = local_runs(
            "0 9 * * *",
            chrono_tz::Europe::Berlin,
            "2024-03-30T12:00:00Z",
            2,
        );
        assert_eq!(
            runs,
            ["2024-03-31T09:00:00+02:00", "2024-04-01T09:00:00+02:00"]
        );
        let runs = local_runs(
            "@daily",
            chrono_tz::Europe::Berlin,
            "2024-10-26T12:00:00Z",
            2,
        );
        assert_eq!(
            runs,
            ["2024-10-27T00:00:00+02:00", "2024-10-28T00:00:00+01:00"]
        );
    }

    #[test]
    fn interval_schedule_adds_the_interval() {
        let s = Schedule::every(Duration::from_secs(1800)).unwrap();
        let t = DateTime::parse_from_rfc3339("2024-03-10T06:40:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            s.next_after_in(&chrono_tz::America::New_York, t)
                .unwrap()
                .to_rfc3339(),
            "2024-03-10T07:10:00+00:00"
        );
        assert!(Schedule::every(Duration::from_millis(10)).is_err());
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

    /// Regression: `25` in the hour field said "Hours must be less than
    /// 23" under a line feedmine had rewritten (`0 0 25 * * *`).
    #[test]
    fn out_of_range_fields_show_the_users_line_and_the_range() {
        let e = "0  25 * * *".parse::<Schedule>().unwrap_err();
        assert_eq!(
            e.reason,
            "hour 25 is out of range 0-23\n    0  25 * * *\n       ^^"
        );
        let e = "*/5 * 32 * *".parse::<Schedule>().unwrap_err();
        assert!(
            e.reason.starts_with("day of month 32 is out of range 1-31"),
            "{}",
            e.reason
        );
        let e = "0 1-60/5 * * *".parse::<Schedule>().unwrap_err();
        assert!(
            e.reason.starts_with("hour 60 is out of range 0-23"),
            "{}",
            e.reason
        );
        // Steps are not positions.
        assert!("*/45 */6 * * *".parse::<Schedule>().is_ok());
    }
}
