import MemoCore
import SQLite

extension SyncHub {
    /// What a push did: the device's last change now applied, and the
    /// items the rules kept against it.
    public struct PushResult {
        public var through: Int64
        public var applied = 0
        public var skipped = 0
        /// Removals refused because the item was edited meanwhile.
        public var kept: [String] = []
        /// Memos whose texts could not be merged: the original's uid and
        /// the conflict copy's.
        public var conflicts: [(original: String, copy: String)] = []

        public var json: JSON {
            .object([("through", .int(through)), ("applied", .int(applied)), ("skipped", .int(skipped)),
                     ("kept", .strings(kept)),
                     ("conflicts", .array(conflicts.map { .object([("uid", .string($0.original)), ("copy", .string($0.copy))]) }))])
        }
    }

    /// Applies a push from `device` whose previous push ended at `from`:
    /// changes at or before the device's last applied one are skipped (a
    /// retry), and a `from` past it is refused, naming it: a device's
    /// changes arrive in order, each once.
    public func push(_ document: JSONReader, device: String) throws -> PushResult {
        try document.refuseMembers(except: ["epoch", "device", "from", "changes"])
        let from = try document.int("from")
        guard from >= 0 else {
            throw MemoError(.badInput, en: "from is a change number, 0 or more", ko: "from은 0 이상의 변경 번호입니다")
        }
        let changes = try document.required("changes").elements()
        guard changes.count <= SyncDocuments.maximumChanges else {
            throw MemoError(.tooLarge, en: "a push carries at most \(SyncDocuments.maximumChanges) changes",
                            ko: "한 번에 최대 \(SyncDocuments.maximumChanges)개의 변경을 보낼 수 있습니다")
        }
        let last = try connection.queryFirst("SELECT last_change FROM sync_devices WHERE device = ?", device) {
            $0.int64(0)
        } ?? 0
        guard from <= last else {
            throw MemoError(.invalidState, hint: .syncOutOfOrder,
                            en: "this device's changes after \(last) are expected, not after \(from)",
                            ko: "이 기기의 \(last) 다음 변경을 기다리고 있습니다(\(from) 다음이 아님)")
        }
        try publishLocalChanges()
        var result = PushResult(through: last)
        var previous = from
        for element in changes {
            let pushed = try SyncDocuments.pushed(element)
            guard pushed.change > previous else {
                throw MemoError(.badInput, en: "a push's changes are numbered in increasing order",
                                ko: "변경 번호는 커지는 순서여야 합니다")
            }
            previous = pushed.change
            guard pushed.change > last else { result.skipped += 1; continue }
            try apply(pushed, into: &result)
            result.applied += 1
            result.through = pushed.change
        }
        try SyncedTimers.tiePendingLinks(in: connection)
        try connection.execute("""
            INSERT INTO sync_devices (device, last_change, seen_at) VALUES (?, ?, ?)
            ON CONFLICT (device) DO UPDATE SET last_change = excluded.last_change, seen_at = excluded.seen_at
            """, device, result.through, clock.now().secondsSince1970)
        // Its own writes are published already: the next publish starts after them.
        try connection.execute("UPDATE sync_state SET published_rev = ?", try LocalChanges.newestRev(in: connection))
        return result
    }

    // MARK: - The rules

    private func apply(_ pushed: SyncDocuments.Pushed, into result: inout PushResult) throws {
        var latest = try latestStamp()
        let now = clock.now()
        var clocks: [String: Int64] = [:]
        for (field, stamp) in pushed.clocks {
            clocks[field] = HybridClock.clamped(stamp, latest: latest, now: now)
            latest = max(latest, clocks[field]!)
        }
        defer { try? connection.execute("UPDATE sync_state SET hlc = max(hlc, ?)", latest) }
        let kind = pushed.kind
        var record = try SyncRecord.read(uid: pushed.uid, in: connection)
        if let record, record.kind.kind != kind.kind {
            throw MemoError(.badInput, en: "uid \(pushed.uid) names a \(record.kind.kind.rawValue), not a \(kind.kind.rawValue)",
                            ko: "uid \(pushed.uid)은(는) \(kind.kind.rawValue)가 아니라 \(record.kind.kind.rawValue)입니다")
        }
        let stored = try kind.read(uid: pushed.uid, in: connection)

        guard let values = pushed.values else {
            // A removal: the edit wins, so the item goes only if no field
            // changed here after the state the device removed.
            guard var known = record, !known.isRemoved, stored != nil else { return }
            if known.clocks.contains(where: { field, stamp in stamp > (pushed.clocks[field] ?? 0) }) {
                result.kept.append(pushed.uid)
                known.seq = try nextSeq()
                try known.write(in: connection)
                return
            }
            try kind.remove(uid: pushed.uid, in: connection)
            try connection.execute("DELETE FROM sync_removed WHERE uid = ?", pushed.uid)
            known.values = nil
            known.clocks[removedClock] = clocks[removedClock] ?? HybridClock.next(after: latest, now: now)
            known.seq = try nextSeq()
            try known.write(in: connection)
            return
        }

        guard let current = stored, let base = record, let hubValues = base.values else {
            // New here, or removed here: made (an edit beats a removal).
            var madeClocks = clocks
            for field in kind.fieldNames where madeClocks[field] == nil {
                madeClocks[field] = HybridClock.next(after: latest, now: now)
            }
            madeClocks[removedClock] = nil
            let rev = try kind.write(uid: pushed.uid, values, updatedAt: now, in: connection, home: place)
            try connection.execute("DELETE FROM sync_removed WHERE uid = ?", pushed.uid)
            try SyncRecord(uid: pushed.uid, kind: kind, rev: rev, seq: try nextSeq(), values: values, clocks: madeClocks)
                .write(in: connection)
            return
        }
        _ = current
        var merged = hubValues
        var mergedClocks = base.clocks
        var conflictText: String?
        for field in kind.fields {
            guard let stamp = clocks[field.name] else { continue }
            let hubStamp = base.clocks[field.name] ?? 0
            let isChanged = pushed.changed.contains(field.name)
            if field.name == "events", kind.kind == .timer {
                let (spans, laps) = try TimerEventsMerge.union(hub: hubValues, device: values)
                merged.columns["spans"] = .text(spans)
                merged.columns["laps"] = .text(laps)
            } else if field.name == "tags" {
                merged.tags = mergedTags(hub: hubValues.tags, device: values.tags, base: pushed.baseTags,
                                         deviceChanged: isChanged, deviceIsLater: stamp > hubStamp)
            } else if field.name == kind.mergedText, isChanged, let column = field.columns.first?.name {
                let hubText = hubValues.columns[column]?.textValue ?? ""
                let deviceText = values.columns[column]?.textValue ?? ""
                switch textOutcome(hub: hubText, device: deviceText, base: pushed.baseText, deviceIsLater: stamp > hubStamp) {
                case .merged(let text): merged.columns[column] = .text(text)
                case .conflict: conflictText = deviceText
                }
            } else if stamp > hubStamp {
                for column in field.columns { merged.columns[column.name] = values.columns[column.name] ?? .null }
            }
            mergedClocks[field.name] = max(hubStamp, stamp)
        }
        if kind.kind == .timer {
            // What the events and the later state disagree on, settled; when
            // even that is no timer, the side whose state is the later stays whole.
            merged = try TimerEventsMerge.normalized(merged, stateClock: mergedClocks["state"] ?? 0)
                ?? ((clocks["state"] ?? 0) > (base.clocks["state"] ?? 0) ? values : hubValues)
        }
        if let conflictText {
            result.conflicts.append((pushed.uid, try makeConflictCopy(of: pushed.uid, kind: kind, device: values,
                                                                      text: conflictText, now: now, latest: &latest)))
        }
        record?.values = merged
        record?.clocks = mergedClocks
        record?.rev = merged == hubValues ? current.rev : try kind.write(uid: pushed.uid, merged, updatedAt: now, in: connection, home: place)
        // Published again even when nothing changed: the device then pulls
        // the hub's state of it and its record of the item is current.
        record?.seq = try nextSeq()
        try record?.write(in: connection)
    }

    /// Tags merge as sets: what the device added since its base is added,
    /// what it removed removed, whatever the hub did meanwhile. Without a
    /// base (a full copy), a device's changed tags are added to the hub's,
    /// and unchanged ones are taken only when they are the later.
    private func mergedTags(hub: [String], device: [String], base: [String]?, deviceChanged: Bool,
                            deviceIsLater: Bool) -> [String] {
        func key(_ tag: String) -> String { tag.lowercased() }
        if let base {
            let baseKeys = Set(base.map(key)), deviceKeys = Set(device.map(key))
            let removed = baseKeys.subtracting(deviceKeys)
            var tags = hub.filter { !removed.contains(key($0)) }
            let present = Set(tags.map(key))
            tags += device.filter { !baseKeys.contains(key($0)) && !present.contains(key($0)) }
            return tags
        }
        guard deviceChanged else { return deviceIsLater ? device : hub }
        let present = Set(hub.map(key))
        return hub + device.filter { !present.contains(key($0)) }
    }

    /// A memo's text changed on the device: merged by lines with its base;
    /// without a base (a full copy), taken when the later, and else kept
    /// beside the hub's as a conflict copy. Never overwritten silently.
    private func textOutcome(hub: String, device: String, base: String?, deviceIsLater: Bool) -> TextMerge.Outcome {
        if let base { return TextMerge.merge(base: base, ours: hub, theirs: device) }
        if hub == device { return .merged(hub) }
        return deviceIsLater ? .merged(device) : .conflict
    }

    /// A new memo holding the device's text, tagged `conflict`, naming the
    /// memo it is a copy of: returns its uid.
    private func makeConflictCopy(of uid: String, kind: SyncedKind, device: SyncedKind.Values, text: String,
                                  now: Timestamp, latest: inout Int64) throws -> String {
        var values = device
        values.columns["text"] = .text(text)
        values.columns["conflict_of"] = .text(uid)
        values.columns["is_pinned"] = .integer(0)
        if !values.tags.contains(where: { $0.lowercased() == "conflict" }) { values.tags.append("conflict") }
        let copy = UUID4.random()
        latest = HybridClock.next(after: latest, now: now)
        let rev = try kind.write(uid: copy, values, updatedAt: now, in: connection, home: place)
        let clocks = Dictionary(uniqueKeysWithValues: kind.fieldNames.map { ($0, latest) })
        try SyncRecord(uid: copy, kind: kind, rev: rev, seq: try nextSeq(), values: values, clocks: clocks).write(in: connection)
        return copy
    }
}

extension SQLiteValue {
    var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
