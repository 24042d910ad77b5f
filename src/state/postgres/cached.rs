//! Statements through the connection's statement cache: each SQL text is
//! prepared once per pooled connection (deadpool's `prepare_cached`) and
//! then only bound and executed. Passing the text straight to
//! `query`/`execute` would prepare it again on every call: one more round
//! trip and a parse and plan on the server, which was the larger part of
//! the database's work per run.
//!
//! Invariant: only constant SQL (or a text from a small fixed set, such as
//! a table name) goes through here, so the cache stays bounded.

use std::future::Future;

use deadpool_postgres::GenericClient;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Error, Row};

/// The `*_cached` forms of `query`, `query_one`, `query_opt` and `execute`.
pub trait Cached: GenericClient {
    fn query_cached(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<Vec<Row>, Error>> + Send;

    fn query_one_cached(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<Row, Error>> + Send;

    fn query_opt_cached(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<Option<Row>, Error>> + Send;

    fn execute_cached(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<u64, Error>> + Send;
}

impl<C: GenericClient + Sync> Cached for C {
    async fn query_cached(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, Error> {
        let statement = self.prepare_cached(sql).await?;
        self.query(&statement, params).await
    }

    async fn query_one_cached(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Row, Error> {
        let statement = self.prepare_cached(sql).await?;
        self.query_one(&statement, params).await
    }

    async fn query_opt_cached(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<Row>, Error> {
        let statement = self.prepare_cached(sql).await?;
        self.query_opt(&statement, params).await
    }

    async fn execute_cached(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, Error> {
        let statement = self.prepare_cached(sql).await?;
        self.execute(&statement, params).await
    }
}
