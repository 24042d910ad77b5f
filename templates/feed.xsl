<?xml version="1.0" encoding="utf-8"?>
<!-- feedmine's feed stylesheet (XSLT 1.0): shows an RSS 2.0 or Atom 1.0
     feed opened in a browser as a readable page. Item bodies are not shown
     (they are HTML inside text; readers render them): only titles, links,
     dates and the plain-text summaries.
     RSS descriptions are HTML-escaped text, so they are unescaped here and
     written as text again: nothing in a feed can become markup on this page.
     Copy this file and set `stylesheet = "path"` in feeds.toml to change it. -->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:atom="http://www.w3.org/2005/Atom"
    exclude-result-prefixes="atom">
  <xsl:output method="html" encoding="utf-8" indent="yes" doctype-system="about:legacy-compat"/>

  <xsl:template match="/">
    <html lang="en">
      <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title><xsl:value-of select="rss/channel/title | atom:feed/atom:title"/> (feed)</title>
        <style>
          body { font: 17px/1.55 system-ui, sans-serif; margin: 2rem auto; max-width: 46rem; padding: 0 1rem; color: #222; background: #fff; }
          .about { background: #eef4ff; border-radius: .5rem; padding: .75rem 1rem; font-size: .9rem; }
          .about code { word-break: break-all; }
          h1 { margin-bottom: .25rem; }
          .description { color: #555; margin-top: 0; }
          article { border-top: 1px solid #ddd; padding: .75rem 0; }
          article h2 { font-size: 1.15rem; margin: 0 0 .25rem; }
          time { color: #666; font-size: .85rem; }
          article p { margin: .35rem 0 0; }
          @media (prefers-color-scheme: dark) {
            body { color: #ddd; background: #161616; }
            .about { background: #1f2a3a; }
            a { color: #8ab4f8; }
            article { border-color: #333; }
            .description, time { color: #aaa; }
          }
        </style>
      </head>
      <body>
        <xsl:apply-templates select="rss/channel | atom:feed"/>
      </body>
    </html>
  </xsl:template>

  <!-- RSS 2.0 -->
  <xsl:template match="channel">
    <xsl:call-template name="about">
      <xsl:with-param name="self" select="atom:link[@rel='self']/@href"/>
    </xsl:call-template>
    <h1><a href="{link}"><xsl:value-of select="title"/></a></h1>
    <p class="description"><xsl:value-of select="description"/></p>
    <xsl:for-each select="item">
      <article>
        <h2>
          <xsl:choose>
            <xsl:when test="link"><a href="{link}"><xsl:value-of select="title"/></a></xsl:when>
            <xsl:otherwise><xsl:value-of select="title"/></xsl:otherwise>
          </xsl:choose>
        </h2>
        <xsl:if test="pubDate"><time><xsl:value-of select="pubDate"/></time></xsl:if>
        <xsl:if test="description">
          <p>
            <xsl:call-template name="unescape">
              <xsl:with-param name="text" select="description"/>
            </xsl:call-template>
          </p>
        </xsl:if>
      </article>
    </xsl:for-each>
  </xsl:template>

  <!-- Atom 1.0 -->
  <xsl:template match="atom:feed">
    <xsl:call-template name="about">
      <xsl:with-param name="self" select="atom:link[@rel='self']/@href"/>
    </xsl:call-template>
    <h1><a href="{atom:link[@rel='alternate']/@href}"><xsl:value-of select="atom:title"/></a></h1>
    <p class="description"><xsl:value-of select="atom:subtitle"/></p>
    <xsl:for-each select="atom:entry">
      <article>
        <h2>
          <xsl:choose>
            <xsl:when test="atom:link[@rel='alternate']"><a href="{atom:link[@rel='alternate']/@href}"><xsl:value-of select="atom:title"/></a></xsl:when>
            <xsl:otherwise><xsl:value-of select="atom:title"/></xsl:otherwise>
          </xsl:choose>
        </h2>
        <time><xsl:value-of select="substring(concat(atom:published, substring(atom:updated, 1 div not(atom:published))), 1, 10)"/></time>
        <xsl:if test="atom:summary"><p><xsl:value-of select="atom:summary"/></p></xsl:if>
      </article>
    </xsl:for-each>
  </xsl:template>

  <xsl:template name="about">
    <xsl:param name="self"/>
    <p class="about">This is a web feed. Copy
      <xsl:choose>
        <xsl:when test="$self">its address, <code><xsl:value-of select="$self"/></code>,</xsl:when>
        <xsl:otherwise>the address of this page</xsl:otherwise>
      </xsl:choose>
      into your feed reader to follow it.</p>
  </xsl:template>

  <!-- HTML-escaped text back to characters (written escaped again by the
       serializer). &amp; goes last so "&amp;lt;" stays "&lt;" as text. -->
  <xsl:template name="unescape">
    <xsl:param name="text"/>
    <xsl:call-template name="replace">
      <xsl:with-param name="text">
        <xsl:call-template name="replace">
          <xsl:with-param name="text">
            <xsl:call-template name="replace">
              <xsl:with-param name="text">
                <xsl:call-template name="replace">
                  <xsl:with-param name="text">
                    <xsl:call-template name="replace">
                      <xsl:with-param name="text" select="$text"/>
                      <xsl:with-param name="from" select="'&amp;lt;'"/>
                      <xsl:with-param name="to" select="'&lt;'"/>
                    </xsl:call-template>
                  </xsl:with-param>
                  <xsl:with-param name="from" select="'&amp;gt;'"/>
                  <xsl:with-param name="to" select="'&gt;'"/>
                </xsl:call-template>
              </xsl:with-param>
              <xsl:with-param name="from" select="'&amp;quot;'"/>
              <xsl:with-param name="to" select="'&quot;'"/>
            </xsl:call-template>
          </xsl:with-param>
          <xsl:with-param name="from">&amp;#39;</xsl:with-param>
          <xsl:with-param name="to">'</xsl:with-param>
        </xsl:call-template>
      </xsl:with-param>
      <xsl:with-param name="from" select="'&amp;amp;'"/>
      <xsl:with-param name="to" select="'&amp;'"/>
    </xsl:call-template>
  </xsl:template>

  <xsl:template name="replace">
    <xsl:param name="text"/>
    <xsl:param name="from"/>
    <xsl:param name="to"/>
    <xsl:choose>
      <xsl:when test="contains($text, $from)">
        <xsl:value-of select="substring-before($text, $from)"/>
        <xsl:value-of select="$to"/>
        <xsl:call-template name="replace">
          <xsl:with-param name="text" select="substring-after($text, $from)"/>
          <xsl:with-param name="from" select="$from"/>
          <xsl:with-param name="to" select="$to"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>
</xsl:stylesheet>
