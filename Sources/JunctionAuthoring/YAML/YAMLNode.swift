/// A node of a YAML document: a scalar, a sequence or a mapping (pairs in the order
/// written), with where it starts. Aliases never get this far: the composer refuses them.
package struct YAMLNode: Sendable {
    /// A key and its value, in the order the mapping lists them.
    package typealias Pair = (key: YAMLNode, value: YAMLNode)

    /// What the node holds.
    package enum Content: Sendable {
        /// A single value as written.
        case scalar(YAMLScalar)
        /// Items in order.
        case sequence([YAMLNode])
        /// Pairs in the order written; the composer has refused repeated keys.
        case mapping([Pair])
    }

    /// What the node holds.
    package var content: Content
    /// Where it starts: a quoted scalar at its quote, a block mapping at its first key.
    package var mark: YAMLMark

    /// A node holding `content` that starts at `mark`.
    package init(_ content: Content, at mark: YAMLMark) {
        self.content = content
        self.mark = mark
    }

    /// The scalar, or `nil` for a collection.
    package var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// A scalar's text, or `nil` for a collection.
    package var text: String? {
        if case .scalar(let scalar) = content { return scalar.text }
        return nil
    }

    /// The items, or `nil` unless the node is a sequence.
    package var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The pairs, or `nil` unless the node is a mapping.
    package var mapping: [Pair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }
}
