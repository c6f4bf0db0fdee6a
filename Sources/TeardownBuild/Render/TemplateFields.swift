import TeardownContent

// Templates look values up by name through these switches, which the compiler turns into
// direct reads of each field. A test checks that every stored property of every model is
// reachable here.

extension LayoutModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "siteTitle": siteTitle.templateValue
        case "language": language.templateValue
        case "pageTitle": pageTitle.templateValue
        case "shareTitle": shareTitle.templateValue
        case "partsIndex": partsIndex.templateValue
        case "tags": tags.templateValue
        case "feeds": feeds.templateValue
        case "twitterCard": twitterCard.templateValue
        case "description": description.templateValue
        case "canonical": canonical.templateValue
        case "home": home.templateValue
        case "help": help.templateValue
        case "stylesheet": stylesheet.templateValue
        case "schemeScript": schemeScript.templateValue
        case "icon": icon.templateValue
        case "iconType": iconType.templateValue
        case "generator": generator.templateValue
        case "bugReport": bugReport.templateValue
        case "photos": photos.templateValue
        case "scripts": scripts.templateValue
        case "image": image.templateValue
        case "search": search.templateValue
        case "searchFilters": searchFilters.templateValue
        case "section": section.templateValue
        default: .missing
        }
    }
}

extension FeedLinkModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "title": title.templateValue
        case "label": label.templateValue
        case "url": url.templateValue
        default: .missing
        }
    }
}

extension SectionModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "machines": machines.templateValue
        case "parts": parts.templateValue
        case "tags": tags.templateValue
        case "photos": photos.templateValue
        case "help": help.templateValue
        default: .missing
        }
    }
}

extension SharingImageModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "url": url.templateValue
        case "width": width.templateValue
        case "height": height.templateValue
        default: .missing
        }
    }
}

extension PictureModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "webp": webp.templateValue
        case "jpeg": jpeg.templateValue
        case "src": src.templateValue
        case "width": width.templateValue
        case "height": height.templateValue
        case "sizes": sizes.templateValue
        case "alt": alt.templateValue
        default: .missing
        }
    }
}

extension LocationModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "text": text.templateValue
        case "map": map.templateValue
        default: .missing
        }
    }
}

extension PhotoPageModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "title": title.templateValue
        case "picture": picture.templateValue
        case "large": large.templateValue
        case "caption": caption.templateValue
        case "author": author.templateValue
        case "credit": credit.templateValue
        case "license": license.templateValue
        case "date": date.templateValue
        case "dateTime": dateTime.templateValue
        case "taken": taken.templateValue
        case "camera": camera.templateValue
        case "location": location.templateValue
        case "machine": machine.templateValue
        case "part": part.templateValue
        case "gallery": gallery.templateValue
        case "download": download.templateValue
        case "previous": previous.templateValue
        case "next": next.templateValue
        default: .missing
        }
    }
}

extension GalleryPageModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "title": title.templateValue
        case "machine": machine.templateValue
        case "part": part.templateValue
        case "photos": photos.templateValue
        case "hasPhotos": hasPhotos.templateValue
        case "count": count.templateValue
        case "pagination": pagination.templateValue
        default: .missing
        }
    }
}

extension PageModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "site": site.templateValue
        case "page": page.templateValue
        default: .missing
        }
    }
}

extension LinkModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "title": title.templateValue
        case "url": url.templateValue
        default: .missing
        }
    }
}

extension StackLayerModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "name": self.name.templateValue
        case "url": url.templateValue
        case "z": z.templateValue
        case "left": left.templateValue
        case "top": top.templateValue
        case "width": width.templateValue
        case "height": height.templateValue
        case "current": current.templateValue
        default: .missing
        }
    }
}

extension StackModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "name": self.name.templateValue
        case "width": width.templateValue
        case "height": height.templateValue
        case "layers": layers.templateValue
        default: .missing
        }
    }
}

extension BackdropModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "name": self.name.templateValue
        case "width": width.templateValue
        case "height": height.templateValue
        case "style": style.templateValue
        default: .missing
        }
    }
}

extension MachineCardModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "name": self.name.templateValue
        case "url": url.templateValue
        case "summary": summary.templateValue
        case "tags": tags.templateValue
        case "partCount": partCount.templateValue
        case "commentCount": commentCount.templateValue
        case "photoCount": photoCount.templateValue
        case "cover": cover.templateValue
        case "backdrop": backdrop().templateValue
        default: .missing
        }
    }
}

extension CatalogModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "description": description.templateValue
        case "machines": machines.templateValue
        case "hasMachines": hasMachines.templateValue
        case "collections": collections.templateValue
        case "pagination": pagination.templateValue
        default: .missing
        }
    }
}

extension EntryModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "author": author.templateValue
        case "date": date.templateValue
        case "dateTime": dateTime.templateValue
        case "html": html.templateValue
        case "isDesigner": isDesigner.templateValue
        case "anchor": anchor.templateValue
        default: .missing
        }
    }
}

extension PaginationModel.PageLink: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "number": number.templateValue
        case "url": url.templateValue
        case "current": current.templateValue
        default: .missing
        }
    }
}

extension PaginationModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "pages": pages.templateValue
        case "previous": previous.templateValue
        case "next": next.templateValue
        default: .missing
        }
    }
}

extension DiscussionModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "entries": entries.templateValue
        case "hasEntries": hasEntries.templateValue
        case "hasComments": hasComments.templateValue
        case "commentCount": commentCount.templateValue
        case "pagination": pagination.templateValue
        default: .missing
        }
    }
}

extension PhotoModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "url": url.templateValue
        case "picture": picture.templateValue
        case "large": large.templateValue
        case "largeWidth": largeWidth.templateValue
        case "largeHeight": largeHeight.templateValue
        case "caption": caption.templateValue
        case "credit": credit.templateValue
        case "license": license.templateValue
        case "date": date.templateValue
        default: .missing
        }
    }
}

extension PartLinkModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "name": self.name.templateValue
        case "url": url.templateValue
        case "counts": counts.templateValue
        default: .missing
        }
    }
}

extension SpecModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "label": label.templateValue
        case "value": value.templateValue
        case "note": note.templateValue
        case "conversions": conversions.templateValue
        default: .missing
        }
    }
}

extension SpecConversionModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "relation": relation.templateValue
        case "text": text.templateValue
        case "note": note.templateValue
        case "system": system.templateValue
        default: .missing
        }
    }
}

extension MachinePageModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "name": self.name.templateValue
        case "searchTitle": searchTitle.templateValue
        case "summary": summary.templateValue
        case "designer": designer.templateValue
        case "license": license.templateValue
        case "updated": updated.templateValue
        case "tags": tags.templateValue
        case "stack": stack.templateValue
        case "parts": parts.templateValue
        case "discussion": discussion.templateValue
        case "photos": photos.templateValue
        case "hasPhotos": hasPhotos.templateValue
        case "gallery": gallery.templateValue
        case "data": data.templateValue
        case "download": download.templateValue
        case "commentsDownload": commentsDownload.templateValue
        case "feed": feed.templateValue
        case "manual": manual.templateValue
        case "intake": intake.templateValue
        default: .missing
        }
    }
}

extension IntakeFormModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "commentAction": commentAction.templateValue
        case "photoAction": photoAction.templateValue
        case "machine": machine.templateValue
        case "part": part.templateValue
        case "back": back.templateValue
        case "authorMin": authorMin.templateValue
        case "authorMax": authorMax.templateValue
        case "commentMin": commentMin.templateValue
        case "commentMax": commentMax.templateValue
        case "photoMax": photoMax.templateValue
        case "held": held.templateValue
        default: .missing
        }
    }
}

extension PartPageModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "name": self.name.templateValue
        case "searchTitle": searchTitle.templateValue
        case "machine": machine.templateValue
        case "backdrop": backdrop.templateValue
        case "layer": layer.templateValue
        case "specs": specs.templateValue
        case "hasSpecs": hasSpecs.templateValue
        case "unitSwitch": unitSwitch.templateValue
        case "tags": tags.templateValue
        case "discussion": discussion.templateValue
        case "photos": photos.templateValue
        case "hasPhotos": hasPhotos.templateValue
        case "gallery": gallery.templateValue
        case "intake": intake.templateValue
        default: .missing
        }
    }
}

extension SearchFilterModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "name": self.name.templateValue
        case "value": value.templateValue
        default: .missing
        }
    }
}

extension ManualPageModel.NavItem: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "title": title.templateValue
        case "url": url.templateValue
        case "current": current.templateValue
        case "kind": kind.templateValue
        case "opens": opens.templateValue
        case "closes": closes.templateValue
        default: .missing
        }
    }
}

extension ManualPageModel.TocItem: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "title": title.templateValue
        case "url": url.templateValue
        case "level": level.templateValue
        default: .missing
        }
    }
}

extension ManualPageModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "title": title.templateValue
        case "manualTitle": manualTitle.templateValue
        case "html": html.templateValue
        case "toc": toc.templateValue
        case "hasToc": hasToc.templateValue
        case "navigation": navigation.templateValue
        case "hasNavigation": hasNavigation.templateValue
        case "navigationData": navigationData.templateValue
        case "contents": contents.templateValue
        case "breadcrumbs": breadcrumbs.templateValue
        case "hasBreadcrumbs": hasBreadcrumbs.templateValue
        case "previous": previous.templateValue
        case "next": next.templateValue
        case "edit": edit.templateValue
        case "bugReport": bugReport.templateValue
        case "print": print.templateValue
        case "indexed": indexed.templateValue
        case "isContents": isContents.templateValue
        default: .missing
        }
    }
}

extension ManualPrintModel.Section: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "id": id.templateValue
        case "html": html.templateValue
        default: .missing
        }
    }
}

extension ManualPrintModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "title": title.templateValue
        case "manual": manual.templateValue
        case "sections": sections.templateValue
        default: .missing
        }
    }
}

extension SearchPageModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "index": index.templateValue
        case "worker": worker.templateValue
        case "merge": merge.templateValue
        case "unavailable": unavailable.templateValue
        case "names": names.templateValue
        case "cacheTag": cacheTag.templateValue
        case "preloads": preloads.templateValue
        case "chunks": chunks.templateValue
        case "chunkFolder": chunkFolder.templateValue
        default: .missing
        }
    }
}

extension NotFoundModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        name == "home" ? home.templateValue : .missing
    }
}

extension CollectionLinkModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "title": title.templateValue
        case "url": url.templateValue
        case "description": description.templateValue
        case "count": count.templateValue
        default: .missing
        }
    }
}

extension PartEntryModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "name": self.name.templateValue
        case "url": url.templateValue
        case "machine": machine.templateValue
        case "thumbnail": thumbnail.templateValue
        default: .missing
        }
    }
}

extension PartThumbnailModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "backdrop": backdrop.templateValue
        case "layer": layer.templateValue
        case "window": window.templateValue
        default: .missing
        }
    }
}

extension PartGroupModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "label": label.templateValue
        case "url": url.templateValue
        case "parts": parts.templateValue
        default: .missing
        }
    }
}

extension LetterTabModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "label": label.templateValue
        case "url": url.templateValue
        case "current": current.templateValue
        case "count": count.templateValue
        default: .missing
        }
    }
}

extension PartsIndexModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "title": title.templateValue
        case "index": index.templateValue
        case "groups": groups.templateValue
        case "tabs": tabs.templateValue
        case "parts": parts.templateValue
        case "hasParts": hasParts.templateValue
        case "count": count.templateValue
        case "pagination": pagination.templateValue
        default: .missing
        }
    }
}

extension TagLinkModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "name": self.name.templateValue
        case "url": url.templateValue
        case "count": count.templateValue
        default: .missing
        }
    }
}

extension TagsModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "tags": tags.templateValue
        case "hasTags": hasTags.templateValue
        default: .missing
        }
    }
}

extension TagPageModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "name": self.name.templateValue
        case "machines": machines.templateValue
        case "hasMachines": hasMachines.templateValue
        case "parts": parts.templateValue
        case "hasParts": hasParts.templateValue
        case "all": all.templateValue
        case "pagination": pagination.templateValue
        default: .missing
        }
    }
}

extension CollectionPageModel: TemplateObject, TemplateRepresentable {
    package func value(named name: String) -> TemplateValue {
        switch name {
        case "title": title.templateValue
        case "description": description.templateValue
        case "machines": machines.templateValue
        case "hasMachines": hasMachines.templateValue
        case "pagination": pagination.templateValue
        default: .missing
        }
    }
}
