//! The migrations, embedded in the binary: each backend has its own folder of SQL files, kept
//! in step (same version numbers, same tables; a test compares them).

use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

/// One migration: version, description, SQL.
pub(crate) type Step = (i64, &'static str, &'static str);

pub(crate) const SQLITE: &[Step] = &[
    (1, "init", include_str!("../migrations/sqlite/0001_init.sql")),
    (2, "aggregates", include_str!("../migrations/sqlite/0002_aggregates.sql")),
    (3, "player indexes", include_str!("../migrations/sqlite/0003_player_indexes.sql")),
    (4, "shared state", include_str!("../migrations/sqlite/0004_shared_state.sql")),
    (5, "reviews", include_str!("../migrations/sqlite/0005_reviews.sql")),
    (6, "hints", include_str!("../migrations/sqlite/0006_hints.sql")),
];

pub(crate) const POSTGRES: &[Step] = &[
    (1, "init", include_str!("../migrations/postgres/0001_init.sql")),
    (2, "aggregates", include_str!("../migrations/postgres/0002_aggregates.sql")),
    (3, "player indexes", include_str!("../migrations/postgres/0003_player_indexes.sql")),
    (4, "shared state", include_str!("../migrations/postgres/0004_shared_state.sql")),
    (5, "reviews", include_str!("../migrations/postgres/0005_reviews.sql")),
    (6, "hints", include_str!("../migrations/postgres/0006_hints.sql")),
];

#[derive(Debug)]
struct Embedded(&'static [Step]);

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async move {
            Ok(self
                .0
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

/// The migrator of one backend.
pub(crate) async fn migrator(
    steps: &'static [Step],
) -> Result<Migrator, sqlx::migrate::MigrateError> {
    Migrator::new(Embedded(steps)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two schemas say the same once comments and the integer type are set aside.
    #[test]
    fn backends_in_step() {
        fn normal(sql: &str) -> String {
            sql.lines()
                .map(|l| l.split("--").next().unwrap_or("").trim_end())
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join("\n")
                .replace("BIGINT", "INTEGER")
        }
        assert_eq!(SQLITE.len(), POSTGRES.len());
        for (a, b) in SQLITE.iter().zip(POSTGRES) {
            assert_eq!((a.0, a.1), (b.0, b.1));
            assert_eq!(normal(a.2), normal(b.2), "migration {} differs", a.0);
        }
    }
}
