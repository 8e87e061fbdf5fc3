// Package datasets is a placeholder doc.
package datasets
