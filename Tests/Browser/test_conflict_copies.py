"""A memo that sync kept as a conflict copy (docs/sync.md: two devices
changed the same lines; the copy holds one device's text and names the
original in `conflict_of`) is marked in the memo list, in both languages."""

import json
import unittest
import urllib.request

from support import BrowserTest


class ConflictCopies:
    def push_conflict_copy(self):
        original = self.server.memoapp("memo", "add", "the hub's text")
        token = self.server.memoapp("token", "create", "device")["token"]
        copy = {"kind": "memo", "uid": "11111111-2222-4333-8444-555555555555", "change": 1, "removed": False,
                "changed": ["text"], "clocks": {"text": 1},
                "values": {"title": None, "text": "the device's text", "is_pinned": False, "created_at": 1800000000,
                           "conflict_of": original["uid"], "tags": ["conflict"]}}
        request = urllib.request.Request(
            self.server.url + "/api/v1/sync/changes", method="POST",
            data=json.dumps({"device": "d1", "from": 0, "changes": [copy]}).encode(),
            headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
        with urllib.request.urlopen(request) as answer:
            self.assertEqual(answer.status, 200)

    def test_a_conflict_copy_is_marked_and_its_original_is_not(self):
        self.complete_onboarding()
        self.push_conflict_copy()
        self.css('.tab[data-tab="memos"]').click()
        self.wait(lambda d: len(self.all(".memo-list .memo")) == 2)
        marks = {row.find_element("css selector", ".preview").text: [m.text for m in row.find_elements("css selector", ".conflict-copy")]
                 for row in self.all(".memo-list .memo")}
        self.assertEqual(marks["the device's text"], [self.expected])
        self.assertEqual(marks["the hub's text"], [])


class ConflictCopiesEnglish(ConflictCopies, BrowserTest):
    expected = "Conflict copy"


class ConflictCopiesKorean(ConflictCopies, BrowserTest):
    language = "ko-KR"
    expected = "충돌 사본"


if __name__ == "__main__":
    unittest.main()
