extension PageStack {
    /// Removes `page` and every page above it, as the screen does when the user swipes back
    /// from it or dismisses its modal: a modal's root takes its whole modal and those above;
    /// a page inside a stack takes the rest of that stack and every modal above.
    /// - Returns: The pages removed, top first; none when `page` is not here or is a tab's root.
    mutating func removeFromScreen(_ page: Page) -> [Page] {
        if let index = modals.firstIndex(where: { $0.contains { $0 === page } }) {
            let position = modals[index].firstIndex { $0 === page }!
            var removed = Array(modals[(index + 1)...].joined())
            if position == 0 {
                removed = modals[index] + removed
                modals.removeSubrange(index...)
            } else {
                removed = Array(modals[index][position...]) + removed
                modals[index].removeSubrange(position...)
                modals.removeSubrange((index + 1)...)
            }
            return removed.reversed()
        }
        guard let position = tabs[selectedTab].firstIndex(where: { $0 === page }), position > 0 else { return [] }
        let removed = Array(tabs[selectedTab][position...]) + Array(modals.joined())
        tabs[selectedTab].removeSubrange(position...)
        modals = []
        return removed.reversed()
    }

    /// Takes exactly `pages` out, wherever they are, keeping every other page in order: the
    /// model follows what the screen removed while pages it has not shown yet stay. A modal
    /// that loses its root hands its remaining pages to the stack below it.
    mutating func remove(_ pages: [Page]) {
        let gone = Set(pages.map(ObjectIdentifier.init))
        tabs = tabs.map { $0.filter { !gone.contains(ObjectIdentifier($0)) } }
        var kept: [[Page]] = []
        for modal in modals {
            let left = modal.filter { !gone.contains(ObjectIdentifier($0)) }
            guard !left.isEmpty else { continue }
            if let root = modal.first, gone.contains(ObjectIdentifier(root)) {
                for page in left { page.presentation = .pushed }
                if kept.isEmpty { tabs[selectedTab] += left } else { kept[kept.count - 1] += left }
            } else {
                kept.append(left)
            }
        }
        modals = kept
    }

    /// Puts `page`, which the screen shows right above `below` (pushed or presented by code
    /// other than the router), in the same place in the model, under any page the screen
    /// has not shown yet; on top when `below` is `nil` or gone.
    mutating func insert(_ page: Page, above below: Page?, presented: Bool) {
        guard let below, self.page(below.id) != nil else {
            _ = presented ? present(page) : push(page)
            return
        }
        if let index = modals.firstIndex(where: { $0.contains { $0 === below } }) {
            if presented {
                page.presentation = .presented
                modals.insert([page], at: index + 1)
            } else {
                page.presentation = .pushed
                let position = modals[index].firstIndex { $0 === below }!
                modals[index].insert(page, at: position + 1)
            }
        } else if let position = tabs[selectedTab].firstIndex(where: { $0 === below }) {
            if presented {
                page.presentation = .presented
                modals.insert([page], at: 0)
            } else {
                page.presentation = .pushed
                tabs[selectedTab].insert(page, at: position + 1)
            }
        } else {
            _ = presented ? present(page) : push(page)
        }
    }
}
