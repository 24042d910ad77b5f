//! Item bodies: main-text extraction from article pages (paper 000).
pub mod tokenize;
pub mod tree;
