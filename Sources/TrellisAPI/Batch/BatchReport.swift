/// What the metrics and the access log learn about a batch beyond its own answer (the request context carries it
/// for the batch's route only): its entries, each counted under its own route, and the steps they took in all.
struct BatchReport {
    var entries: [BatchEntryRecord] = []
    var steps = 0
}

/// What the metrics learn about one entry of a batch (counted under the entry's own route).
struct BatchEntryRecord {
    let route: Int
    let status: Int
    let micros: Int
    let bytesIn: Int
    let bytesOut: Int
    let steps: Int
}
