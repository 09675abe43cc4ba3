//! The id of a review: given by the queue, one more for each new review, never reused.

pub type ReviewId = u64;
