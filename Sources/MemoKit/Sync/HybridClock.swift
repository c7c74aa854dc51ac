import MemoCore

/// The hybrid logical clock that orders concurrent changes of one field:
/// a stamp is microseconds since 1970, taken as the later of the wall clock
/// when the field changed and one past the stamp of the value it replaced,
/// so a change is always stamped after the value it was made on, whatever
/// its device's wall clock says. Conflicts are found by revisions and
/// records, never by clocks; a stamp only decides which of two concurrent
/// values of a field stays.
///
/// A device's clock can be wrong. One a day slow still stamps after what it
/// has synced (the "after" half), so it does not lose forever; one a day
/// fast would win forever, so the hub clamps every stamp ahead of its own
/// clock to its own next stamp (`clamped`) before keeping it. A change is
/// stamped by when it was made (the item's `updated_at`), never by when it
/// is sent: an edit made offline last week must not beat one made since.
public enum HybridClock {
    /// Microseconds since 1970 of `time`.
    public static func micros(_ time: Timestamp) -> Int64 {
        let value = time.secondsSince1970 * 1_000_000
        guard value.isFinite, value > 0 else { return 0 }
        return value >= Double(Int64.max / 2) ? Int64.max / 2 : Int64(value)
    }

    /// The stamp of a change made at `now` to a value stamped `latest`.
    public static func next(after latest: Int64, now: Timestamp) -> Int64 {
        max(latest &+ 1, micros(now))
    }

    /// A stamp a device sent, as the hub keeps it: unchanged unless it is
    /// ahead of the hub's clock, then the hub's own next stamp.
    public static func clamped(_ stamp: Int64, latest: Int64, now: Timestamp) -> Int64 {
        stamp > micros(now) ? next(after: latest, now: now) : max(stamp, 0)
    }
}
