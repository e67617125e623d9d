//! Rate limits: a token bucket, and buckets by key (a player, an address) for limits on what
//! one visitor may ask of the server.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A token bucket: `rate` tokens a second, at most `burst` saved up.
#[derive(Debug)]
pub struct Bucket {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    /// A full bucket.
    pub fn new(rate: f64, burst: f64) -> Bucket {
        Bucket { tokens: burst, last: Instant::now(), rate, burst }
    }

    fn refill(&mut self) {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate).min(self.burst);
        self.last = now;
    }

    /// Takes a token; when there is none, how long until there is.
    pub fn take_or_wait(&mut self) -> Result<(), Duration> {
        self.refill();
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - self.tokens) / self.rate.max(1e-9)))
        }
    }

    /// Takes a token if there is one.
    pub fn take(&mut self) -> bool {
        self.take_or_wait().is_ok()
    }

    fn full(&mut self) -> bool {
        self.refill();
        self.tokens >= self.burst
    }
}

/// A bucket per key, `per_minute` tokens a minute each with bursts of as many. Full buckets
/// are forgotten when the map grows, so memory stays in proportion to recent visitors.
#[derive(Debug)]
pub struct Limiter {
    per_minute: u32,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl Limiter {
    /// A limiter of `per_minute` (0: no limit).
    pub fn new(per_minute: u32) -> Limiter {
        Limiter { per_minute, buckets: Mutex::default() }
    }

    /// Takes one for `key`; when refused, how long until it would be allowed.
    pub fn take(&self, key: &str) -> Result<(), Duration> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 10_000 {
            buckets.retain(|_, b| !b.full());
        }
        let rate = f64::from(self.per_minute) / 60.0;
        let burst = f64::from(self.per_minute);
        buckets.entry(key.to_string()).or_insert_with(|| Bucket::new(rate, burst)).take_or_wait()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_refusals_that_say_when() {
        let l = Limiter::new(3);
        for _ in 0..3 {
            assert!(l.take("a").is_ok());
        }
        let wait = l.take("a").unwrap_err();
        assert!(wait > Duration::from_secs(15) && wait <= Duration::from_secs(20), "{wait:?}");
        // Another key has its own bucket; 0 means no limit.
        assert!(l.take("b").is_ok());
        let free = Limiter::new(0);
        assert!((0..1000).all(|_| free.take("a").is_ok()));
    }
}
